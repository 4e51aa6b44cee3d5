import type Database from 'better-sqlite3';
import type { TriageCountsResponse } from '../../shared/api/triage';
import { SLOW_MS, triageModel } from './model';

/**
 * jq filters over the JSONL files that count what the raw counts count: every event line, replay and
 * broadcast copies included (`jq -c 'select(…)' **\/*.jsonl | wc -l`). The errors filter names the hook rule
 * the normalizer applies (a hook whose resultKind is error is an error even if its status says ok); Copilot
 * writes status error for those hooks, so on real logs it equals `select(.status == "error")`.
 */
export const JQ_FILTERS = {
  slow: `select(.dur > ${SLOW_MS})`,
  errors: 'select(.status == "error" or (.type == "hook" and .attrs.resultKind == "error"))',
} as const;

/**
 * GET /api/triage/counts: the headline numbers, canonical (dup = 0: what every statistic on the page counts)
 * and raw (every line, which is what jq over the files counts). Kept by the triage model as counters that
 * grow with each sync, so answering costs nothing.
 */
export function triageCounts(db: Database.Database, now = Date.now()): TriageCountsResponse {
  const m = triageModel(db, now);
  const c = m.counts;
  return {
    slow: { minDur: SLOW_MS, unique: c.slowUnique, raw: c.slowRaw, jq: JQ_FILTERS.slow },
    errors: { unique: c.errorsUnique, raw: c.errorsRaw, jq: JQ_FILTERS.errors },
    failures: { unique: c.failuresUnique },
    version: m.lastId,
  };
}
