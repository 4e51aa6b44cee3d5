import { z } from 'zod';
import { IndexedCompanionCount, IndexedFileCount, IndexedSessionCount } from '../counts';

export const Problem = z.object({
  fileId: z.number().nullable(),
  path: z.string(),
  lineNo: z.number().nullable(),
  byteOffset: z.number().nullable(),
  /** corrupt: the index file was damaged, moved aside and rebuilt from the logs (reason names what was lost); disk_full: writes paused */
  kind: z.enum(['bad_line', 'fragment', 'unreadable', 'io', 'indexer', 'corrupt', 'disk_full']),
  reason: z.string(),
  at: z.number(),
});
export type Problem = z.infer<typeof Problem>;

/** Files and bytes of one part of a backfill. */
export const BackfillShare = z.object({
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
});
export type BackfillShare = z.infer<typeof BackfillShare>;

export const BackfillProgress = z.object({
  state: z.enum(['starting', 'running', 'idle']),
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  /**
   * The same figures split in two, once the backfill has listed its files: `recent` is the sessions whose last
   * write is within 7 days of the newest write on disk (they are indexed first), `older` the rest
   * (server/ingest/backfill-order.ts defines both).
   */
  recent: BackfillShare.optional(),
  older: BackfillShare.optional(),
});
export type BackfillProgress = z.infer<typeof BackfillProgress>;

export const Health = z.object({
  ok: z.boolean(),
  version: z.string(),
  schemaVersion: z.number(),
  demo: z.boolean(),
  dbPath: z.string(),
  roots: z.array(z.object({ path: z.string(), exists: z.boolean(), error: z.string().nullable() })),
  workspaces: z.number(),
  files: IndexedFileCount,
  companions: IndexedCompanionCount,
  sessions: IndexedSessionCount,
  /** every event line of every log file (shared/counts.ts, SessionEventCount) */
  events: z.number(),
  badLines: z.number(),
  fragments: z.number(),
  /** ms between the newest byte seen on disk and it being committed; 0 when caught up */
  indexLagMs: z.number(),
  backfill: BackfillProgress,
  problems: z.array(Problem),
  /**
   * The search file (event text), written apart from the archive: events the archive holds that search does not
   * find yet (0 once caught up), and the events.id it is complete through.
   */
  search: z.object({ indexedThrough: z.number(), eventsBehind: z.number() }),
  /** null when the server does not forward to a collector */
  forwarding: z.lazy(() => ForwardStatus).nullable(),
});
export type Health = z.infer<typeof Health>;

/** Messages on GET /api/stream (Server-Sent Events; `event:` is the key). */
export const StreamIndexed = z.object({ sessionIds: z.array(z.string()), events: z.number(), at: z.number() });
export type StreamIndexed = z.infer<typeof StreamIndexed>;

/** Forwarding to an OpenTelemetry collector (`serve --otlp-endpoint`): where it stands. */
export const ForwardStatus = z.object({
  endpoint: z.string(),
  protocol: z.enum(['http/protobuf', 'http/json']),
  content: z.boolean(),
  /** sending: catching up; idle: every event sent; retrying: the last request failed and is tried again */
  state: z.enum(['starting', 'sending', 'idle', 'retrying']),
  /** events.id sent through (committed with the index: a restart resumes after it) */
  cursor: z.number(),
  /** events indexed but not sent yet */
  pending: z.number(),
  sentSpans: z.number(),
  /** spans the collector refused for good (a 4xx other than 429): counted, not retried */
  droppedSpans: z.number(),
  lastSentAt: z.number().nullable(),
  lastError: z.object({ message: z.string(), at: z.number() }).nullable(),
});
export type ForwardStatus = z.infer<typeof ForwardStatus>;
