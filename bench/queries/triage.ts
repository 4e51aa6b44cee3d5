// Triage queries for the benchmark runner: the first page of each triage view, called exactly as the HTTP
// routes call them (same schemas, same defaults), plus the jq filters that count the same lines.
//
// How they stay fast: the error groups, latency statistics and headline counts are passes over the triage
// model (server/triage/model.ts), typed-array columns of every canonical call and failure that a sync extends
// by event id (events are append-only), and their results are cached by the model's version (schema cookie,
// max(events.id), sessions). The first call on a connection pays one scan of the events table; afterwards a
// call costs a pragma, two point reads and a cache lookup, or a pass over the columns when the index changed.
// The slow list is one SQL query down the partial index events_dur (calls slower than 5 s only; a lower threshold
// or the TTFT sort is a pass over the model's columns), with its total counted once per index version and filter set.
import type Database from 'better-sqlite3';
import { ErrorGroupsQuery, EventListQuery, LatencyStatsQuery, type ErrorGroupsResponse, type EventListResponse, type LatencyStatsResponse, type TriageCountsResponse } from '../../shared/api';
import { JQ_FILTERS, triageCounts as counts } from '../../server/triage/counts';
import { errorGroups } from '../../server/triage/error-groups';
import { listEvents } from '../../server/triage/events';
import { latencyStats as stats } from '../../server/triage/latency';
import { triageModel } from '../../server/triage/model';

/** GET /api/events (defaults: dur > 5000, slowest first, 50 rows). */
export function slowFirstPage(db: Database.Database): EventListResponse {
  return listEvents(db, EventListQuery.parse({}));
}

/** GET /api/errors/groups (defaults: all time, by count, 50 groups). */
export function errorGroupsFirstPage(db: Database.Database): ErrorGroupsResponse {
  return errorGroups(db, ErrorGroupsQuery.parse({}));
}

/** GET /api/stats/latency?by=model (all time). */
export function latencyStats(db: Database.Database): LatencyStatsResponse {
  return stats(db, LatencyStatsQuery.parse({ by: 'model' }));
}

/** GET /api/triage/counts: canonical and raw counts of slow events and errors. */
export function triageCounts(db: Database.Database): TriageCountsResponse {
  return counts(db);
}

/** Builds the triage model of a connection (the one-time scan), so that timed calls measure steady state. */
export function warmTriage(db: Database.Database): void {
  triageModel(db);
}

/**
 * jq filters over the JSONL files that count exactly what `triageCounts(db).<name>.raw` counts: every line,
 * replayed (FORMAT §4.4) and broadcast (§4.9) copies included, because jq sees each copy. The canonical
 * (`unique`) counts exclude them (events.dup 1 and 2). Run them as
 * `jq -R 'fromjson? | select(type == "object") | <filter> | 1' files… | wc -l` (bad lines skipped as the
 * indexer skips them). `errors` names the rule that a hook whose resultKind is error is an error; Copilot writes
 * status error on those, so on its logs it gives the same count as `select(.status == "error")`.
 */
export const jqEquivalents = {
  slow: JQ_FILTERS.slow,
  errors: JQ_FILTERS.errors,
  errorsByStatus: 'select(.status == "error")',
} as const;
