import { LatencyStatsQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { formatStats } from '../triage/format-cli';
import { latencyStats } from '../triage/latency';
import { openIndexForQuery } from './open-index';

/** `chronoscope stats [--by model|tool|hook|subagent|repository] [--type llm_request] [--window 7d] [--repo R] [--json]` */
export async function runStats(opts: Options): Promise<number> {
  const q = parseFlags(LatencyStatsQuery, { by: flag(opts, 'by'), type: flag(opts, 'type'), window: flag(opts, 'window'), repo: flag(opts, 'repo') });
  if (!q.ok) {
    process.stderr.write(`chronoscope stats: ${q.message}\n`);
    return 2;
  }
  const db = await openIndexForQuery(opts);
  try {
    const r = latencyStats(db, q.data);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatStats(r));
    return 0;
  } finally {
    db.close();
  }
}
