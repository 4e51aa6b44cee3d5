// CLI: npx tsx bench/generate-corpus.ts --out DIR [--size 64m] [--seed 42] [--sessions N] [--workspaces N]
//      [--now ISO-or-ms] [--no-edge-cases]
// Writes the corpus and DIR/manifest.json, then prints a one-line summary.
import { parseArgs } from 'node:util';
import { generateCorpus } from '../server/corpus/generate';
import { parseSize } from '../server/corpus/size';

function parseNow(text: string): number {
  const n = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(n)) throw new Error(`invalid --now "${text}" (ms since epoch or an ISO date)`);
  return n;
}

function positiveInt(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      size: { type: 'string', default: '64m' },
      seed: { type: 'string', default: '42' },
      sessions: { type: 'string' },
      workspaces: { type: 'string' },
      now: { type: 'string' },
      'no-edge-cases': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help || !values.out) {
    console.log('usage: npx tsx bench/generate-corpus.ts --out DIR [--size 64m] [--seed 42] [--sessions N] [--workspaces N] [--now ISO|ms] [--no-edge-cases]');
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got "${values.seed}"`);
  const started = performance.now();
  const m = await generateCorpus({
    outDir: values.out,
    seed,
    targetBytes: parseSize(values.size!),
    sessions: positiveInt('sessions', values.sessions),
    workspaces: positiveInt('workspaces', values.workspaces),
    now: values.now === undefined ? undefined : parseNow(values.now),
    edgeCases: !values['no-edge-cases'],
  });
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  const mib = (m.bytes / (1 << 20)).toFixed(1);
  console.log(
    `corpus ${m.outDir}: ${mib} MiB in ${m.totals.files} files, ${m.totals.events} events, ${m.totals.badLines} bad lines, ` +
      `${m.totals.sessions} sessions, ${m.workspaces.length} workspaces, ${m.totals.slowEvents} slow, ${m.totals.errorEvents} errors (seed ${m.seed}, ${secs}s)`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
