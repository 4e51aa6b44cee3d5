import type Database from 'better-sqlite3';
import { inOneSnapshot } from '../db/one-snapshot';
import type { SearchQuery } from '../../shared/api/search';
import type { AppContext } from '../app-context';
import { encodeJson } from '../http/json-bytes';
import { exportMarkdown } from '../export/markdown';
import { loadOtlpExport, otlpDocument } from '../export/otlp-export-op';
import { searchSessions } from '../search/search-sessions';
import { listRequests } from '../spans/list-requests';
import { listSpans, seekSpan, spanOverview, type ListSpansInput, type SeekInput } from '../spans/list-spans';
import { requestTimeline, requestBreakdowns } from '../spans/request-timeline';
import { listCustomizations, type CustomizationsQuery } from '../customizations/list-customizations';
import { cacheBreaks } from '../usage/cache-breaks';
import { usage } from '../usage/usage';
import type { CacheParams, UsageParams } from '../../shared/api';

/**
 * What the read workers run: the requests whose work grows with what they read and that hold nothing the main
 * connection needs. Search (a long phrase, a common word read to the end) and a session's span tree (built whole
 * for the biggest session: 90 ms at 7,000 events, again after every commit during a backfill). Not triage: its
 * model's typed arrays live per connection, and one copy is the memory budget. And the exports, which read a
 * session's lines, and usage and customizations, which read every model call or discovery event of their window.
 */
export const READ_OPS = {
  search: (db: Database.Database, a: { input: SearchQuery; now: number }) => searchSessions(db, a.input, a.now),
  spans: (db: Database.Database, a: { sessionId: string; query: ListSpansInput }) => listSpans(db, a.sessionId, a.query),
  spanSeek: (db: Database.Database, a: { sessionId: string; query: SeekInput }) => seekSpan(db, a.sessionId, a.query),
  spanOverview: (db: Database.Database, a: { sessionId: string }) => spanOverview(db, a.sessionId),
  spanRequests: (db: Database.Database, a: { sessionId: string }) => listRequests(db, a.sessionId),
  spanTimeline: (db: Database.Database, a: { sessionId: string; eventId: number }) => requestTimeline(db, a.sessionId, a.eventId),
  spanBreakdowns: (db: Database.Database, a: { sessionId: string }) => requestBreakdowns(db, a.sessionId),
  // the session's span tree again (the page's, already built in this worker), and the lines of what it writes
  markdown: (db: Database.Database, a: { sessionId: string; maxChars?: number; eventId?: number }) => ({ text: exportMarkdown(db, a.sessionId, { maxChars: a.maxChars, eventId: a.eventId }) }),
  otlp: (db: Database.Database, a: { sessionId: string }) => otlpDocument(db, a.sessionId),
  // passes over every model call of the window: `usage` over all time took 1.0 s of the bench archive
  usage: (db: Database.Database, a: { query: UsageParams; now: number }) => usage(db, a.query, a.now),
  cacheBreaks: (db: Database.Database, a: { query: CacheParams; now: number }) => cacheBreaks(db, a.query, a.now),
  customizations: (db: Database.Database, a: { query: CustomizationsQuery; now: number }) => listCustomizations(db, a.query, a.now),
};

/** What an op needs loaded, in the thread that runs it, before it runs (its module's packages, not at the thread's start). */
export const READ_OP_LOADS: Partial<Record<keyof typeof READ_OPS, () => Promise<void>>> = { otlp: loadOtlpExport };

export type ReadOp = keyof typeof READ_OPS;
export type ReadArgs<K extends ReadOp> = Parameters<(typeof READ_OPS)[K]>[1];
export type ReadResult<K extends ReadOp> = ReturnType<(typeof READ_OPS)[K]>;

/** Runs one of them on `db` in one snapshot of the index (one-snapshot.ts): in a read worker, or on the caller's connection. */
export function runReadOp<K extends ReadOp>(db: Database.Database, op: K, args: ReadArgs<K>): ReadResult<K> {
  const run = READ_OPS[op] as (d: Database.Database, a: ReadArgs<K>) => ReadResult<K>;
  return inOneSnapshot(db, (d) => run(d, args));
}

/**
 * Where a route runs one: in the server's read worker, or on its own connection when it has none (API tests). The
 * answer comes as its JSON bytes (json-bytes.ts), which the route sends with `jsonBody`.
 */
export async function readOffTheLoop<K extends ReadOp>(ctx: Pick<AppContext, 'db' | 'readPool'>, op: K, args: ReadArgs<K>): Promise<Uint8Array<ArrayBuffer>> {
  if (ctx.readPool) return ctx.readPool.run(op, args);
  await READ_OP_LOADS[op]?.();
  return encodeJson(runReadOp(ctx.db, op, args));
}
