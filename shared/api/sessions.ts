import { z } from 'zod';
import { SessionErrorCount, SessionEventCount } from '../counts';
import { PageLimit, SessionSource, TimeWindow } from './common';

/** The workspace `chronoscope import` writes imported sessions into: its name is what marks them imported. */
export const IMPORTED_WORKSPACE = 'chronoscope-imported';

/** One row of the sessions list. Times are ms since the epoch. */
export const SessionSummary = z.object({
  id: z.string(),
  title: z.string().nullable(),
  repository: z.string().nullable(),
  branch: z.string().nullable(),
  workspaceFolder: z.string().nullable(),
  createdAt: z.number().nullable(),
  updatedAt: z.number().nullable(),
  eventCount: SessionEventCount,
  errorCount: SessionErrorCount,
  isChild: z.boolean(),
  parentId: z.string().nullable(),
  label: z.string().nullable(),
  logDeleted: z.boolean(),
  models: z.array(z.string()),
  tokensIn: z.number(),
  tokensOut: z.number(),
  /** AI credits of its model calls (Σ copilotUsageNanoAiu / 10⁹); null when no call carries credit data */
  credits: z.number().nullable(),
  childCount: z.number(),
  /** read from an OTLP file (`chronoscope import`), not from Copilot's own logs */
  imported: z.boolean(),
  source: SessionSource.optional(),
  /**
   * false for a CLI session without `session.shutdown` (running or crashed): its input, cache and credit totals
   * are unknown, only per-call output tokens exist (INTEROP §3). Absent or true: the totals are complete.
   */
  usageComplete: z.boolean().optional(),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

/** What the sessions list can be ordered by; sorted on the server, since the list is paged. */
export const SessionSort = z.enum(['updated', 'duration', 'events', 'errors', 'tokens', 'credits']);
export type SessionSort = z.infer<typeof SessionSort>;

export const SessionListQuery = z.object({
  repo: z.string().optional(),
  /** default: last activity, newest first; sessions without a value for the key (no credit data) come last either way */
  sort: SessionSort.default('updated'),
  dir: z.enum(['asc', 'desc']).default('desc'),
  window: TimeWindow.default('all'),
  /** include child sessions (subagents, title, …) as their own rows; default: top-level only */
  children: z.enum(['0', '1']).default('0'),
  /** only sessions of this source; default both */
  source: SessionSource.optional(),
  cursor: z.string().optional(),
  limit: PageLimit.default(100),
});
export type SessionListQuery = z.infer<typeof SessionListQuery>;

export const SessionListResponse = z.object({
  sessions: z.array(SessionSummary),
  nextCursor: z.string().nullable(),
  total: z.number(),
});
export type SessionListResponse = z.infer<typeof SessionListResponse>;

export const LogFileInfo = z.object({
  id: z.number(),
  path: z.string(),
  kind: z.enum(['main', 'child', 'legacy']),
  label: z.string().nullable(),
  sessionId: z.string(),
  events: z.number(),
  badLines: z.number(),
  fragments: z.number(),
  size: z.number(),
  deleted: z.boolean(),
});
export type LogFileInfo = z.infer<typeof LogFileInfo>;

export const CompanionInfo = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(['models', 'system_prompt', 'tools', 'other']),
  index: z.number().nullable(),
  size: z.number(),
  deleted: z.boolean(),
});
export type CompanionInfo = z.infer<typeof CompanionInfo>;

export const SessionDetail = SessionSummary.extend({
  /** the parent (parentId) has a row in the index: false for one only its child names (another workspace, deleted) */
  parentInIndex: z.boolean(),
  countsByType: z.record(z.string(), z.number()),
  tokensCached: z.number(),
  modelMs: z.number(),
  copilotVersion: z.string().nullable(),
  vscodeVersion: z.string().nullable(),
  firstTs: z.number().nullable(),
  lastTs: z.number().nullable(),
  slowest: z.object({ eventId: z.number(), name: z.string(), dur: z.number() }).nullable(),
  children: z.array(
    z.object({
      id: z.string(),
      label: z.string().nullable(),
      title: z.string().nullable(),
      eventCount: SessionEventCount,
      errorCount: SessionErrorCount,
      parentSpanId: z.string().nullable(),
    }),
  ),
  files: z.array(
    z.object({ path: z.string(), toolName: z.string().nullable(), turnIndex: z.number().nullable(), firstSeenAt: z.number().nullable() }),
  ),
  refs: z.array(z.object({ type: z.string(), value: z.string(), turnIndex: z.number().nullable() })),
  companions: z.array(CompanionInfo),
  logFiles: z.array(LogFileInfo),
});
export type SessionDetail = z.infer<typeof SessionDetail>;

/** GET /api/repositories: the repositories that have sessions (for the sessions filter). */
/** `source` narrows the counts like the list's own filter, so a group's "3 of 12" counts what the list shows. */
export const RepositoryListQuery = z.object({ window: TimeWindow.default('all'), source: SessionSource.optional() });
export type RepositoryListQuery = z.infer<typeof RepositoryListQuery>;

export const RepositorySummary = z.object({
  /** null: sessions whose workspace has no repository */
  name: z.string().nullable(),
  sessions: z.number(),
  lastActivity: z.number().nullable(),
});
export type RepositorySummary = z.infer<typeof RepositorySummary>;

export const RepositoryListResponse = z.object({ repositories: z.array(RepositorySummary) });
export type RepositoryListResponse = z.infer<typeof RepositoryListResponse>;
