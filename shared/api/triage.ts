import { z } from 'zod';
import { CALL_TYPES, SLOW_MS } from '../triage-terms';
import { MAX_PAGE_SIZE, SearchableText, SessionSource, TimeWindow } from './common';

export { CALL_TYPES, SLOW_MS };

// Triage (issue 5): the slowest calls, failures grouped by cause and latency statistics across every session.
//
// Counting rules, shared by every number below:
// - Only canonical events count (`events.dup = 0`): replayed core events and broadcast user messages
//   (FORMAT §4.4, §4.9) are copies of an event already counted in another session, and a repeat inside one
//   file is the same line twice. `GET /api/triage/counts` also gives the raw counts (every line, copies
//   included), which are what `jq` over the files counts.
// - "Slow" is `dur > min` (strictly; the default min 5000 is the troubleshoot skill's `select(.dur > 5000)`).
// - "Error" is `status = error`; a hook whose `resultKind` is `error` is an error too (the normalizer sets it).
// - Percentiles are exact and **nearest-rank**: the p-th percentile of n values is the value at 1-based
//   rank ceil(p/100 × n) of the values sorted ascending (so p50 of [1,2,3,4] is 2, p99 of 10 values is the
//   maximum). Computed from every value in the window, never from averages of averages.

const csv = z
  .string()
  .max(400)
  .transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''));

const Ms = z.coerce.number().int();

/** GET /api/events: events across all sessions, filtered; by default the slowest calls. */
export const EventListQuery = z.object({
  /** event types, comma-separated (llm_request, tool_call, subagent, hook, generic, discovery, …) */
  type: csv.optional(),
  /** slower than this many ms (strictly: dur > min). -1 includes instant (dur 0) events. */
  min: Ms.min(-1).default(SLOW_MS),
  /** at most this many ms (dur <= max) */
  max: Ms.min(0).optional(),
  status: z.enum(['ok', 'error']).optional(),
  model: z.string().max(200).optional(),
  /** tool_call name or subagent agent name */
  tool: z.string().max(200).optional(),
  /** the event's name (hook type, discovery name, …) */
  name: z.string().max(200).optional(),
  /** repository of the session; '' = sessions without one */
  repo: z.string().max(400).optional(),
  /** only the sessions of this source (the sessions list's `source`); default both */
  source: SessionSource.optional(),
  /** one session id */
  session: z.string().max(200).optional(),
  window: TimeWindow.default('all'),
  /** start time range [from, to) in ms since the epoch (chart buckets); combined with window */
  from: Ms.optional(),
  to: Ms.optional(),
  /** substring of the event's searchable text (3 characters or more use the trigram index) */
  q: SearchableText(500).optional(),
  /** failures only: '1' = every failure (error, non-blocking hook error, discovery skip) */
  failed: z.enum(['1']).optional(),
  /** failures with this signature (an error group's `signature`) */
  sig: z.string().max(400).optional(),
  sort: z.enum(['dur', 'ts', 'ttft']).default('dur'),
  order: z.enum(['desc', 'asc']).default('desc'),
  cursor: z.string().max(400).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type EventListQuery = z.input<typeof EventListQuery>;
export type EventListParams = z.output<typeof EventListQuery>;

export const TriageEvent = z.object({
  id: z.number(),
  sessionId: z.string(),
  sessionTitle: z.string().nullable(),
  repository: z.string().nullable(),
  type: z.string(),
  name: z.string().nullable(),
  model: z.string().nullable(),
  tool: z.string().nullable(),
  status: z.enum(['ok', 'error']),
  ts: z.number().nullable(),
  dur: z.number(),
  ttft: z.number().nullable(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  tokensCached: z.number().nullable(),
  /** the error text, cut to 500 characters */
  error: z.string().nullable(),
  /** the failure signature when this event is a failure */
  signature: z.string().nullable(),
  /** the source of the event's session */
  source: SessionSource.optional(),
  /**
   * true when tokensIn / tokensCached are a CLI session's `session.shutdown` totals split over its calls, not
   * written per call (INTEROP §3): shown marked "estimated"
   */
  estimated: z.boolean().optional(),
});
export type TriageEvent = z.infer<typeof TriageEvent>;

export const EventListResponse = z.object({
  events: z.array(TriageEvent),
  nextCursor: z.string().nullable(),
  /** canonical events matching the filters (dup copies excluded); exact unless totalCapped */
  total: z.number(),
  /** true when only "at least `total`" is known: a text filter or instant events of any type, counted up to a cap */
  totalCapped: z.boolean(),
});
export type EventListResponse = z.infer<typeof EventListResponse>;

export const FailureKind = z.enum(['tool', 'model', 'subagent', 'hook', 'discovery', 'other']);
export type FailureKind = z.infer<typeof FailureKind>;

/** GET /api/errors/groups: failures grouped by (kind, subject, signature). */
export const ErrorGroupsQuery = z.object({
  kind: FailureKind.optional(),
  /** the model, tool, hook type or discovery name */
  subject: z.string().max(200).optional(),
  repo: z.string().max(400).optional(),
  /** only the sessions of this source (the sessions list's `source`); default both */
  source: SessionSource.optional(),
  window: TimeWindow.default('all'),
  /** substring of the signature or subject, case-insensitive */
  q: z.string().max(200).optional(),
  sort: z.enum(['count', 'last', 'sessions']).default('count'),
  /** sparkline buckets */
  buckets: z.coerce.number().int().min(4).max(120).default(30),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type ErrorGroupsQuery = z.input<typeof ErrorGroupsQuery>;
export type ErrorGroupsParams = z.output<typeof ErrorGroupsQuery>;

export const ErrorGroup = z.object({
  kind: FailureKind,
  subject: z.string(),
  signature: z.string(),
  /** the event type the group's occurrences have, for GET /api/events?type=…&sig=… */
  type: z.string(),
  count: z.number(),
  sessions: z.number(),
  firstSeen: z.number().nullable(),
  lastSeen: z.number().nullable(),
  /** occurrences per bucket of the response's [sparkFrom, sparkFrom + buckets × bucketMs) */
  sparkline: z.array(z.number()),
  /** the most recent occurrence: its id, session and full error text (cut to 500 characters) */
  latest: z.object({
    eventId: z.number(),
    sessionId: z.string(),
    message: z.string().nullable(),
    /** the call's result text (what the tool or model answered: often the real cause), cut to 500 characters */
    result: z.string().nullable(),
  }),
});
export type ErrorGroup = z.infer<typeof ErrorGroup>;

export const ErrorGroupsResponse = z.object({
  groups: z.array(ErrorGroup),
  /** groups matching the filters */
  totalGroups: z.number(),
  /** failures in those groups (canonical events) */
  totalFailures: z.number(),
  byKind: z.record(z.string(), z.number()),
  sparkFrom: z.number(),
  bucketMs: z.number(),
  nextOffset: z.number().nullable(),
  /** the index version the answer was computed at (max events.id) */
  version: z.number(),
});
export type ErrorGroupsResponse = z.infer<typeof ErrorGroupsResponse>;

export const StatsBy = z.enum(['model', 'tool', 'hook', 'subagent', 'repository']);
export type StatsBy = z.infer<typeof StatsBy>;

/** GET /api/stats/latency: one row per model, tool, hook type, subagent or repository. */
export const LatencyStatsQuery = z.object({
  /** model: llm_request by model; tool: tool_call by tool; subagent: subagent by agent; hook: hook by hook type; repository: `type` calls by the session's repository */
  by: StatsBy.default('model'),
  /** with by=repository: which calls (default llm_request) */
  type: z.enum(CALL_TYPES).optional(),
  repo: z.string().max(400).optional(),
  /** only the sessions of this source (the sessions list's `source`); default both */
  source: SessionSource.optional(),
  window: TimeWindow.default('all'),
});
export type LatencyStatsQuery = z.input<typeof LatencyStatsQuery>;
export type LatencyStatsParams = z.output<typeof LatencyStatsQuery>;

export const Percentiles = z.object({ p50: z.number(), p90: z.number(), p99: z.number(), max: z.number() });
export type Percentiles = z.infer<typeof Percentiles>;

export const LatencyRow = z.object({
  key: z.string(),
  count: z.number(),
  errors: z.number(),
  /** errors / count */
  errorRate: z.number(),
  /** duration percentiles in ms (nearest-rank, exact); null when count = 0 */
  dur: Percentiles.nullable(),
  /** time to first token, model calls with a ttft only */
  ttft: Percentiles.nullable(),
  ttftCount: z.number(),
  /**
   * Token totals over the calls that reported each figure; null when none did (unknown is not zero: Copilot CLI
   * writes a call's output tokens but its input and cached tokens only per session, INTEROP §3; older VS Code logs
   * write no cachedTokens). The counts say how many of the group's calls each total covers.
   */
  tokensIn: z.number().nullable(),
  tokensInCount: z.number(),
  tokensOut: z.number().nullable(),
  tokensOutCount: z.number(),
  tokensCached: z.number().nullable(),
  tokensCachedCount: z.number(),
  /** sum of output tokens / sum of (dur − ttft) in seconds over model calls having both; null otherwise */
  outputTokensPerSec: z.number().nullable(),
});
export type LatencyRow = z.infer<typeof LatencyRow>;

/** Whether a row of model calls has a token total no call reported (shown "—"): the table then says what "—" means. */
export function hasUnknownTokens(rows: readonly LatencyRow[]): boolean {
  return rows.some((r) => r.tokensIn === null || r.tokensOut === null || r.tokensCached === null);
}

export const LatencyStatsResponse = z.object({
  by: StatsBy,
  window: TimeWindow,
  rows: z.array(LatencyRow),
  /** how the percentiles are computed, for tooltips */
  percentileDefinition: z.string(),
  version: z.number(),
});
export type LatencyStatsResponse = z.infer<typeof LatencyStatsResponse>;

/** The calls a chart is drawn from: one group (by + key) or all of them, in a window. */
export const ChartQuery = z.object({
  by: StatsBy.default('model'),
  /** with by=repository: which calls (default llm_request) */
  type: z.enum(CALL_TYPES).optional(),
  /** one model / tool / …; absent = every row of `by` */
  key: z.string().max(400).optional(),
  repo: z.string().max(400).optional(),
  /** only the sessions of this source (the sessions list's `source`); default both */
  source: SessionSource.optional(),
  window: TimeWindow.default('all'),
});
export type ChartQuery = z.input<typeof ChartQuery>;
export type ChartParams = z.output<typeof ChartQuery>;

/** GET /api/stats/histogram: durations in log-spaced (1-2-5) buckets (lo, hi]. */
export const HistogramResponse = z.object({
  buckets: z.array(z.object({ lo: z.number(), hi: z.number(), count: z.number(), errors: z.number() })),
  total: z.number(),
});
export type HistogramResponse = z.infer<typeof HistogramResponse>;

/** GET /api/stats/timeseries: calls and errors per hour or day. */
export const TimeseriesQuery = ChartQuery.extend({ interval: z.enum(['hour', 'day', 'auto']).default('auto') });
export type TimeseriesQuery = z.input<typeof TimeseriesQuery>;
export type TimeseriesParams = z.output<typeof TimeseriesQuery>;
export const TimeseriesResponse = z.object({
  interval: z.enum(['hour', 'day']),
  bucketMs: z.number(),
  points: z.array(z.object({ t: z.number(), calls: z.number(), errors: z.number() })),
});
export type TimeseriesResponse = z.infer<typeof TimeseriesResponse>;

/** GET /api/stats/ttft-scatter: model calls as (input tokens, ttft) points; at most `limit`, evenly sampled. */
export const ScatterQuery = ChartQuery.extend({ limit: z.coerce.number().int().min(10).max(5000).default(1500) });
export type ScatterQuery = z.input<typeof ScatterQuery>;
export type ScatterParams = z.output<typeof ScatterQuery>;
export const ScatterResponse = z.object({
  points: z.array(z.object({ eventId: z.number(), sessionId: z.string(), tokensIn: z.number(), ttft: z.number(), dur: z.number(), model: z.string() })),
  /** model calls with both values in the window; points is every k-th of them when this exceeds the limit */
  total: z.number(),
});
export type ScatterResponse = z.infer<typeof ScatterResponse>;

/** GET /api/triage/counts: the headline counts, canonical and raw (every line, as jq counts them). */
/** GET /api/triage/counts: the headline numbers of the window and repository the page shows. */
export const TriageCountsQuery = z.object({
  window: TimeWindow.default('all'),
  repo: z.string().max(400).optional(),
  /** only the sessions of this source (the sessions list's `source`); default both */
  source: SessionSource.optional(),
});
export type TriageCountsQuery = z.input<typeof TriageCountsQuery>;
export type TriageCountsParams = z.output<typeof TriageCountsQuery>;

export const TriageCountsResponse = z.object({
  slow: z.object({ minDur: z.number(), unique: z.number(), raw: z.number(), jq: z.string() }),
  errors: z.object({ unique: z.number(), raw: z.number(), jq: z.string() }),
  failures: z.object({ unique: z.number() }),
  version: z.number(),
});
export type TriageCountsResponse = z.infer<typeof TriageCountsResponse>;
