import { z } from 'zod';
import { IndexedCompanionCount, IndexedFileCount, IndexedSessionCount } from '../counts';

export const Problem = z.object({
  fileId: z.number().nullable(),
  path: z.string(),
  lineNo: z.number().nullable(),
  byteOffset: z.number().nullable(),
  /** corrupt: the index file was damaged, moved aside and rebuilt from the logs (reason names what was lost) */
  kind: z.enum(['bad_line', 'fragment', 'unreadable', 'io', 'indexer', 'corrupt']),
  reason: z.string(),
  at: z.number(),
});
export type Problem = z.infer<typeof Problem>;

export const BackfillProgress = z.object({
  state: z.enum(['starting', 'running', 'idle']),
  filesDone: z.number(),
  filesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
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
});
export type Health = z.infer<typeof Health>;

/** Messages on GET /api/stream (Server-Sent Events; `event:` is the key). */
export const StreamIndexed = z.object({ sessionIds: z.array(z.string()), events: z.number(), at: z.number() });
export type StreamIndexed = z.infer<typeof StreamIndexed>;
