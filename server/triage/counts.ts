import type Database from 'better-sqlite3';
import { ErrorGroupsQuery, EventListQuery, type TriageCountsParams, type TriageCountsResponse } from '../../shared/api/triage';
import { errorGroups } from './error-groups';
import { listEvents } from './events';
import { SLOW_MS } from '../../shared/api/triage';
import { triageModel } from './model';

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
 * and raw (every line, which is what jq over the files counts). Over all time they are the triage model's
 * counters (free); for a window, a repository or a source they are the totals of the very lists the cards link to, so a
 * card and its list always show the same number. Raw counts are all-time only (jq has no window), of the
 * repository's or source's sessions when one is given (jq over their files).
 */
export function triageCounts(db: Database.Database, scope: Partial<TriageCountsParams> = {}, now = Date.now()): TriageCountsResponse {
  const m = triageModel(db, now);
  const c = m.counts;
  const window = scope.window ?? 'all';
  const scoped = window !== 'all' || scope.repo !== undefined || scope.source !== undefined;
  const raw = m.rawCounts(scope.repo, scope.source);
  const total = (q: object) => listEvents(db, EventListQuery.parse({ ...q, window, repo: scope.repo, source: scope.source, limit: 1 }), now).total;
  return {
    slow: { minDur: SLOW_MS, unique: scoped ? total({ min: SLOW_MS }) : c.slowUnique, raw: raw.slow, jq: JQ_FILTERS.slow },
    errors: { unique: scoped ? total({ min: -1, status: 'error' }) : c.errorsUnique, raw: raw.errors, jq: JQ_FILTERS.errors },
    failures: { unique: scoped ? errorGroups(db, ErrorGroupsQuery.parse({ window, repo: scope.repo, source: scope.source, limit: 1 }), now).totalFailures : c.failuresUnique },
    version: m.lastId,
  };
}
