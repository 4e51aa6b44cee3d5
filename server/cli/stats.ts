import { LatencyStatsQuery } from '../../shared/api';
import type { Options } from '../config';
import { flag, parseFlags } from '../triage/cli-args';
import { formatStats } from '../triage/format-cli';
import { latencyStats } from '../triage/latency';
import { EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { readIndex } from './open-index';

/** `chronoscope stats [--by model|tool|hook|subagent|repository] [--type llm_request] [--window 7d] [--repo R] [--source cli|vscode] [--json]`: exit 1 when no call matches. */
export async function runStats(opts: Options): Promise<number> {
  const q = parseFlags(LatencyStatsQuery, { by: flag(opts, 'by'), type: flag(opts, 'type'), window: flag(opts, 'window'), repo: flag(opts, 'repo'), source: flag(opts, 'source') });
  return readIndex(opts, (db) => {
    const r = latencyStats(db, q);
    process.stdout.write(opts.json ? JSON.stringify(r) + '\n' : formatStats(r));
    return r.rows.length > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  });
}
