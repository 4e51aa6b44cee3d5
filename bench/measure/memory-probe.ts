// `npx tsx bench/measure/memory-probe.ts --corpus DIR --db FILE [--port N] [--load] [--steady]`: one backfill by the
// built server (dist/), its peak RSS, CPU seconds (per thread too) and where the memory was at the peak (CHRONOSCOPE_MEMORY_LOG), in
// a minute on a small corpus: what a memory change is compared by, run against run (issue 19.3). `--load` adds the
// bench's query load during the backfill, `--steady` the idle and under-load RSS after it.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { removeDatabaseFiles } from '../../server/db/open';
import { corpusRoots } from '../../server/corpus/corpus-roots';
import { rssSampler, threadCpuSeconds, threadSchedSeconds, treeCpuSeconds } from '../lib/process-tree';
import { memoryAt, readMemoryLog } from './memory-log';
import { awaitBackfill, startServerProcess } from './server-process';
import { steadyRss } from './steady-rss';
import { HEAP_SNAPSHOT_ENV } from '../../server/memory/thread-memory';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    db: { type: 'string' },
    port: { type: 'string', default: '7460' },
    load: { type: 'boolean', default: false },
    steady: { type: 'boolean', default: false },
    // the ingest worker's heap snapshot when the backfill ends (CHRONOSCOPE_HEAP_SNAPSHOT, worker.ts)
    snapshot: { type: 'string' },
  },
});
if (!values.corpus || !values.db) throw new Error('--corpus DIR and --db FILE are required');
const dbPath = values.db;
const manifest = JSON.parse(fs.readFileSync(`${values.corpus}/manifest.json`, 'utf8')) as { bytes: number; notable: { identifiers: string[] } };
const loadPaths = ['/api/search?q=' + encodeURIComponent(manifest.notable.identifiers[0]), '/api/events?min=5000&sort=dur', '/api/sessions?limit=100', '/api/errors/groups'];
/** The snapshot is written once its size stops changing. */
async function snapshotWritten(file: string): Promise<void> {
  let last = -1;
  for (;;) {
    await new Promise((r) => setTimeout(r, 2000));
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size > 0 && size === last) return;
    last = size;
  }
}
const mb = (b: number) => `${Math.round(b / 2 ** 20)} MB`;

removeDatabaseFiles(dbPath);
const memoryLog = `${dbPath}.memory.jsonl`;
fs.rmSync(memoryLog, { force: true });
const t0 = performance.now();
if (values.snapshot) fs.rmSync(values.snapshot, { force: true });
const env = values.snapshot ? { [HEAP_SNAPSHOT_ENV]: values.snapshot } : undefined;
const server = await startServerProcess({ roots: corpusRoots(values.corpus), dbPath, port: Number(values.port), memoryLog, env });
const pid = server.child.pid as number;
const rss = rssSampler(pid);
try {
  await awaitBackfill(server.base, t0, { loadPaths: values.load ? loadPaths : [], loadMs: values.load ? 90_000 : 0 });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = treeCpuSeconds(pid);
  const threads = threadCpuSeconds(pid).filter((t) => t.seconds >= 0.1);
  // The ingest thread's wall besides its own work: the share of the wall it ran is what a variant is compared by
  // when the host's speed moves between rounds (docs/CONTRIBUTING.md, "A new host").
  const busiest = threadSchedSeconds(pid).reduce<ReturnType<typeof threadSchedSeconds>[number] | null>((a, t) => (a === null || t.runningSeconds > a.runningSeconds ? t : a), null);
  const peak = rss.stop();
  const out = [
    `backfill ${(manifest.bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s, ${cpu.toFixed(1)} CPU s (${((1000 * cpu) / (manifest.bytes / 1e6)).toFixed(1)} CPU ms/MB)`,
    // main first, V8's and libuv's helpers, then the workers as made: the busiest is the ingest worker, then search
    `CPU s per thread (thread id − process id: seconds): ${threads.map((t) => `${t.tid - pid}: ${t.seconds.toFixed(1)}`).join(', ')}`,
    busiest === null
      ? 'the busiest thread: no schedstat here'
      : `the busiest thread (${busiest.tid - pid}, the ingest worker): running ${busiest.runningSeconds.toFixed(1)} s (${((100 * busiest.runningSeconds) / seconds).toFixed(1)}% of the wall), ` +
        `waiting for a core ${busiest.waitingSeconds.toFixed(1)} s, otherwise (blocked, or not started yet) ${(seconds - busiest.runningSeconds - busiest.waitingSeconds).toFixed(1)} s`,
    `peak RSS ${mb(peak)}`,
    `at the peak: ${memoryAt(readMemoryLog(memoryLog), rss.peakAt())}`,
  ];
  if (values.steady) {
    const s = await steadyRss({ base: server.base, pid, paths: loadPaths });
    out.push(`idle after: median ${mb(s.idle.median)}, max ${mb(s.idle.max)}; under load: ${mb(s.underLoad.peak)} (${s.underLoad.requests} requests)`);
    out.push(`at the load peak: ${memoryAt(readMemoryLog(memoryLog), s.underLoad.peakAt)}`);
  }
  process.stdout.write(out.join('\n') + '\n');
  if (values.snapshot) await snapshotWritten(values.snapshot);
} finally {
  rss.stop();
  await server.stop();
  removeDatabaseFiles(dbPath);
}
