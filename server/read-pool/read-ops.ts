import type Database from 'better-sqlite3';
import type { SearchQuery } from '../../shared/api/search';
import { searchSessions } from '../search/search-sessions';
import { listRequests } from '../spans/list-requests';
import { listSpans, seekSpan, spanOverview, type ListSpansInput, type SeekInput } from '../spans/list-spans';
import { requestTimeline, requestBreakdowns } from '../spans/request-timeline';

/**
 * What the read workers run: the requests whose work grows with what they read and that hold nothing the main
 * connection needs. Search (a long phrase, a common word read to the end) and a session's span tree (built whole
 * for the biggest session: 90 ms at 7,000 events, again after every commit during a backfill). Not triage: its
 * model's typed arrays live per connection, and one copy is the memory budget.
 */
export const READ_OPS = {
  search: (db: Database.Database, a: { input: SearchQuery; now: number }) => searchSessions(db, a.input, a.now),
  spans: (db: Database.Database, a: { sessionId: string; query: ListSpansInput }) => listSpans(db, a.sessionId, a.query),
  spanSeek: (db: Database.Database, a: { sessionId: string; query: SeekInput }) => seekSpan(db, a.sessionId, a.query),
  spanOverview: (db: Database.Database, a: { sessionId: string }) => spanOverview(db, a.sessionId),
  spanRequests: (db: Database.Database, a: { sessionId: string }) => listRequests(db, a.sessionId),
  spanTimeline: (db: Database.Database, a: { sessionId: string; eventId: number }) => requestTimeline(db, a.sessionId, a.eventId),
  spanBreakdowns: (db: Database.Database, a: { sessionId: string }) => requestBreakdowns(db, a.sessionId),
};

export type ReadOp = keyof typeof READ_OPS;
export type ReadArgs<K extends ReadOp> = Parameters<(typeof READ_OPS)[K]>[1];
export type ReadResult<K extends ReadOp> = ReturnType<(typeof READ_OPS)[K]>;
