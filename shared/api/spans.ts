import { z } from 'zod';
import { MAX_PAGE_SIZE, SearchableText } from './common';

/** Event types the in-session filter accepts (the `events.type` values, plus raw types of unknown entries). */
const typeList = z
  .string()
  .max(400)
  .transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''));

const idList = z
  .string()
  .max(20_000)
  .refine((s) => /^(\d+(,\d+)*)?$/.test(s), 'a comma-separated list of event ids')
  .transform((s) => (s === '' ? [] : s.split(',').map(Number)));

/**
 * What decides which rows of a session's span tree are visible: the filters, and which branches are folded.
 * Folding: in `fold=default` the branches of child sessions (subagents, title, categorization, summarize)
 * start folded; `toggled` lists the ids whose fold state the user flipped from that default. In
 * `fold=none` everything starts expanded and `toggled` lists the folded ids. In `fold=all` every branch starts
 * folded (one row per request: "Collapse all") and `toggled` lists the ids opened since.
 */
export const SpanViewQuery = z.object({
  type: typeList.optional(),
  status: z.enum(['ok', 'error']).optional(),
  minDur: z.coerce.number().int().min(0).optional(),
  model: z.string().max(200).optional(),
  tool: z.string().max(200).optional(),
  /** text: matches the event's searchable text (substring), its name, tool and model */
  q: SearchableText(500).optional(),
  fold: z.enum(['default', 'none', 'all']).default('default'),
  toggled: idList.optional(),
});
export type SpanViewQuery = z.input<typeof SpanViewQuery>;
export type SpanView = z.output<typeof SpanViewQuery>;

export const SpanListQuery = SpanViewQuery.extend({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(200),
  /** an event id to make visible: its folded ancestors open, and the response says its row index */
  reveal: z.coerce.number().int().positive().optional(),
});
export type SpanListQuery = z.input<typeof SpanListQuery>;

/** One visible row of the span tree, in pre-order. Times are ms since the epoch. */
export const SpanRow = z.object({
  /** events.id: the key for selection, deep links and GET /api/events/:id */
  id: z.number(),
  index: z.number(),
  type: z.string(),
  name: z.string(),
  status: z.enum(['ok', 'error']),
  start: z.number().nullable(),
  duration: z.number(),
  /** end of the span and everything under it (a request's bar covers all its work) */
  subtreeEnd: z.number().nullable(),
  depth: z.number(),
  childCount: z.number(),
  /** every event below this row, folded or not */
  descendants: z.number(),
  collapsed: z.boolean(),
  /** the session whose log file holds the line (the session itself, or a child) */
  sessionId: z.string(),
  model: z.string().nullable(),
  tool: z.string().nullable(),
  ttft: z.number().nullable(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  label: z.string(),
  /** a replay copy of an event another session holds too (core events, broadcast user messages) */
  replay: z.boolean(),
  /** its parentSpanId named no span in this session or its children */
  orphan: z.boolean(),
  /**
   * placed under its parent by the shape of its span id, not by its parentSpanId: a turn entry
   * (`turn_start-<agentSpanId>-<n>`, whose parentSpanId is the agent's parent) or an `agent-msg-<chatSpanId>`
   * whose parentSpanId names no entry (beside its model call)
   */
  inferredParent: z.boolean(),
  /** false for the ancestors a filter keeps only so that a match has its context */
  match: z.boolean(),
});
export type SpanRow = z.infer<typeof SpanRow>;

export const SpanStats = z.object({
  /** events in the tree: every event of the session and its child logs except in-file repeats */
  events: z.number(),
  roots: z.number(),
  orphans: z.number(),
  /** dup = 2 lines: a repeat of an event in the same file, hidden */
  hiddenRepeats: z.number(),
  /** Copilot CLI starts folded into their completion (a tool call, subagent or hook is one span) */
  mergedStarts: z.number(),
  replays: z.number(),
  errors: z.number(),
  maxDepth: z.number(),
  sessions: z.number(),
});
export type SpanStats = z.infer<typeof SpanStats>;

export const SpanListResponse = z.object({
  sessionId: z.string(),
  /** changes whenever the session (or a child) gains events: rows of different versions do not mix */
  version: z.string(),
  /** visible rows with this view */
  total: z.number(),
  offset: z.number(),
  rows: z.array(SpanRow),
  /** rows matching the filters (not counting the ancestors kept for context); null without filters */
  matched: z.number().nullable(),
  stats: SpanStats,
  /** the row index of `reveal`; null when it is not in this tree or the filters hide it */
  revealIndex: z.number().nullable(),
  /** ids of folded ancestors that `reveal` opened: add them to `toggled` to keep them open */
  revealOpened: z.array(z.number()),
});
export type SpanListResponse = z.infer<typeof SpanListResponse>;

/** GET /api/sessions/:id/spans/seek: the next or previous error (or filter match) from a row. */
export const SpanSeekQuery = SpanViewQuery.extend({
  from: z.coerce.number().int().min(-1),
  dir: z.enum(['next', 'prev']).default('next'),
  what: z.enum(['error', 'match']).default('error'),
});
export type SpanSeekQuery = z.input<typeof SpanSeekQuery>;

export const SpanSeekResponse = z.object({
  index: z.number().nullable(),
  id: z.number().nullable(),
  /** folded ancestors opened to reach it (add them to `toggled`) */
  opened: z.array(z.number()),
});
export type SpanSeekResponse = z.infer<typeof SpanSeekResponse>;

/**
 * The session's shared time axis. Idle gaps (nothing running for a long time) are squeezed: `segments` map
 * time to a position 0..1 piecewise linearly, and an `idle` segment covers a gap drawn narrow and marked.
 */
export const TimeSegment = z.object({ t0: z.number(), t1: z.number(), x0: z.number(), x1: z.number(), idle: z.boolean() });
export type TimeSegment = z.infer<typeof TimeSegment>;

export const TimeAxis = z.object({
  start: z.number(),
  end: z.number(),
  segments: z.array(TimeSegment),
});
export type TimeAxis = z.infer<typeof TimeAxis>;

export const RequestSummary = z.object({
  /** the user_message event */
  id: z.number(),
  label: z.string(),
  start: z.number().nullable(),
  end: z.number().nullable(),
  /** tool-loop iterations: turn_start events of the request */
  iterations: z.number(),
  /** turn_start without its turn_end (the iteration threw) */
  unfinished: z.number(),
  errors: z.number(),
  sessionId: z.string(),
});
export type RequestSummary = z.infer<typeof RequestSummary>;

export const SpanOverview = z.object({
  sessionId: z.string(),
  version: z.string(),
  /** the session and every child session whose log is in the tree (for live updates) */
  sessionIds: z.array(z.string()),
  stats: SpanStats,
  /** null when no event has a time */
  axis: TimeAxis.nullable(),
  /** events started per slice of the axis (the minimap), and those that failed */
  histogram: z.object({ bins: z.array(z.number()), errors: z.array(z.number()) }),
  requests: z.array(RequestSummary),
  /** requests beyond the cap are left out */
  requestsTotal: z.number(),
  types: z.array(z.object({ type: z.string(), count: z.number() })),
  models: z.array(z.string()),
  tools: z.array(z.object({ tool: z.string(), count: z.number() })),
});
export type SpanOverview = z.infer<typeof SpanOverview>;

/** GET /api/events/:id. `maxChars` bounds every string (attrs and the raw line); omit it for the whole event. */
export const EventDetailQuery = z.object({
  maxChars: z.coerce.number().int().min(256).optional(),
});
export type EventDetailQuery = z.input<typeof EventDetailQuery>;

export const EventDetail = z.object({
  id: z.number(),
  sessionId: z.string(),
  /** the top-level session whose folder holds the file (itself for a main log) */
  folderSessionId: z.string().nullable(),
  type: z.string(),
  name: z.string(),
  spanId: z.string().nullable(),
  parentSpanId: z.string().nullable(),
  status: z.enum(['ok', 'error']),
  ts: z.number().nullable(),
  dur: z.number(),
  rIdx: z.number(),
  model: z.string().nullable(),
  tool: z.string().nullable(),
  ttft: z.number().nullable(),
  tokensIn: z.number().nullable(),
  tokensOut: z.number().nullable(),
  tokensCached: z.number().nullable(),
  error: z.string().nullable(),
  dup: z.number(),
  attrs: z.record(z.string(), z.unknown()),
  /** attr name → full length of a string value cut to maxChars here (not Copilot's own `[truncated]` cut) */
  cut: z.record(z.string(), z.number()),
  raw: z.string(),
  rawLength: z.number(),
  file: z.object({ id: z.number(), path: z.string(), kind: z.string(), lineNo: z.number(), byteOffset: z.number(), deleted: z.boolean() }),
  /** companion files in effect for a model call: system prompt, tools (named by the attrs) and models.json */
  companions: z.array(z.object({ attr: z.string().nullable(), name: z.string(), kind: z.string(), id: z.number().nullable() })),
});
export type EventDetail = z.infer<typeof EventDetail>;

// The axis's arithmetic lives apart from this contract's zod schemas (shared/time-axis.ts).
export { axisTime, axisX } from '../time-axis';
