import { EventListQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { triageCounts } from '../triage/counts';
import { listEvents } from '../triage/events';
import { formatSlow } from '../triage/format-cli';
import { unknownTypeHint } from '../triage/type-hint';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';

/** `chronoscope slow [--min 5000] [--type llm_request] [--model M] [--tool T] [--window 7d] [--repo R] [--source cli|vscode] [--sort dur|ts|ttft] [--limit 20] [--json]`: exit 1 when no call matches. */
export async function runSlow(opts: Options): Promise<number> {
  const q = parseFlags(EventListQuery, {
    min: flag(opts, 'min'),
    type: flag(opts, 'type'),
    model: flag(opts, 'model'),
    tool: flag(opts, 'tool'),
    window: flag(opts, 'window'),
    repo: flag(opts, 'repo'),
    source: flag(opts, 'source'),
    sort: flag(opts, 'sort'),
    limit: flag(opts, 'limit') ?? '20',
  });
  return readIndex(opts, (db) => {
    const r = listEvents(db, q);
    process.stdout.write(opts.json ? JSON.stringify({ ...r, counts: triageCounts(db) }) + '\n' : formatSlow(r, triageCounts(db)));
    if (r.events.length > 0) return EXIT_OK;
    for (const hint of (q.type ?? []).map(unknownTypeHint)) if (hint) process.stderr.write(`chronoscope slow: ${hint}\n`);
    return EXIT_NOTHING_FOUND;
  });
}
