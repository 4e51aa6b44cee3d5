import { z } from 'zod';
import { SessionEventCount } from '../counts';
import { MAX_PAGE_SIZE, SessionSource, TimeWindow } from './common';

/**
 * GET /api/search. `q` is the query language of docs (whitespace = AND, "exact phrase", -exclude,
 * repo: branch: type: tool: model: status: file: ref: source:); the other parameters shape the answer.
 */
export const SearchQuery = z.object({
  q: z.string().max(2000, 'a query is at most 2,000 characters'),
  window: TimeWindow.default('all'),
  sort: z.enum(['relevance', 'recent']).default('relevance'),
  /** one repository group only, paged with `cursor` ('' = the sessions without a repository, "Other") */
  group: z.string().optional(),
  /** sessions shown per repository group on the overview page */
  perGroup: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  /** sessions per page: on the overview, across groups; with `group`, of that group */
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(60),
  cursor: z.string().optional(),
  /**
   * 'first' ranks the sessions of the first few thousand matching events (fast, totals may be a lower bound);
   * 'all' reads every match (exact totals, slower for words found in 100k events).
   */
  depth: z.enum(['first', 'all']).default('first'),
});
export type SearchQuery = z.infer<typeof SearchQuery>;
export type SearchQueryInput = z.input<typeof SearchQuery>;

/**
 * Where a session matched: turn (user message or response), tool, error, … ; meta = id, title or label;
 * prompt = a message a model call was sent (userRequest, inputMessages); system_prompt and tools = the
 * session's companion files (system_prompt_N.json, tools_N.json).
 */
export const MatchKind = z.enum(['turn', 'tool', 'error', 'llm', 'subagent', 'hook', 'discovery', 'other', 'meta', 'file', 'ref', 'prompt', 'system_prompt', 'tools']);
export type MatchKind = z.infer<typeof MatchKind>;

/** Text around a match; highlights are [start, end) offsets into `text` in UTF-16 code units. */
export const SearchSnippet = z.object({
  text: z.string(),
  highlights: z.array(z.tuple([z.number(), z.number()])),
  /** text was cut before / after what is shown (render an ellipsis) */
  cutStart: z.boolean(),
  cutEnd: z.boolean(),
});
export type SearchSnippet = z.infer<typeof SearchSnippet>;

export const SearchHit = z.object({
  kind: MatchKind,
  /** the matching event (null for meta, and for file/ref rows without a source event) */
  eventId: z.number().nullable(),
  /** the session whose log holds the event: the session itself or one of its subagents */
  sessionId: z.string(),
  inSubagent: z.boolean(),
  eventType: z.string().nullable(),
  /** the event's name (tool, hook, agent…); for a file hit its path, for a ref "PR #12", for a companion its file name */
  name: z.string().nullable(),
  ts: z.number().nullable(),
  /** the text around the match: on a session's first hit (the others are links to their events) */
  snippet: SearchSnippet.nullable(),
  /** the source of the session whose log holds the event */
  source: SessionSource.optional(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchSession = z.object({
  id: z.string(),
  title: z.string().nullable(),
  repository: z.string().nullable(),
  branch: z.string().nullable(),
  lastActivity: z.number().nullable(),
  eventCount: SessionEventCount,
  /** matching units per kind, most first (events of subagents are counted in their kind too) */
  kinds: z.array(z.object({ kind: MatchKind, count: z.number() })),
  /** how many of the matching events are in subagent (child) sessions rolled up into this one */
  subagentHits: z.number(),
  score: z.number(),
  /** the best hits, best first: the earliest match in each place it matched; the first carries the snippet */
  hits: z.array(SearchHit),
  source: SessionSource.optional(),
});
export type SearchSession = z.infer<typeof SearchSession>;

export const SearchGroup = z.object({
  /** null: "Other", sessions without a repository */
  repository: z.string().nullable(),
  /** matching sessions in this repository */
  sessionCount: z.number(),
  sessions: z.array(SearchSession),
  /** sessions of this group not shown here ("…and N more") */
  more: z.number(),
  /** next page of this group (pass it with `group`) */
  nextCursor: z.string().nullable(),
});
export type SearchGroup = z.infer<typeof SearchGroup>;

export const SearchTerm = z.object({ text: z.string(), exclude: z.boolean(), phrase: z.boolean(), index: z.enum(['trigram', 'cjk']) });
export type SearchTerm = z.infer<typeof SearchTerm>;

export const SearchResponse = z.object({
  /** how the query was understood */
  query: z.object({
    terms: z.array(SearchTerm),
    filters: z.record(z.string(), z.array(z.string())),
    window: TimeWindow,
    sort: z.enum(['relevance', 'recent']),
  }),
  totals: z.object({
    sessions: z.number(),
    events: z.number(),
    /** false: only the first `scannedEvents` matching events were read; the totals are a lower bound */
    exact: z.boolean(),
    scannedEvents: z.number(),
  }),
  /** every repository with matches (also those not on this page), best first */
  repositories: z.array(z.object({ repository: z.string().nullable(), sessions: z.number() })),
  groups: z.array(SearchGroup),
  /** next page of groups */
  nextCursor: z.string().nullable(),
  /**
   * Archived events search cannot find yet: the newest, past the search file's mark while it catches up (a
   * refill after an upgrade or a lost file). 0 when caught up; counted up to 1,000,000 (health's same number).
   */
  notYetSearchable: z.number(),
  tookMs: z.number(),
});
export type SearchResponse = z.infer<typeof SearchResponse>;
