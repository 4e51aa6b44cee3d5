import type Database from 'better-sqlite3';
import { WINDOW_MS, type SessionListQuery, type SessionListResponse } from '../../shared/api';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { sessionEventCounts } from '../counts/session-events';
import { LISTED_SESSION, SESSION_SUMMARY_COLUMNS, toSessionSummary, type SessionRow } from './session-row';

/** Sessions newest first (by last activity), keyset-paginated, narrowed by repository and time window. */
export function listSessions(db: Database.Database, q: SessionListQuery, now = Date.now()): SessionListResponse {
  const where: string[] = [LISTED_SESSION];
  const params: Record<string, unknown> = {};
  if (q.children === '0') where.push('s.is_child = 0');
  if (q.repo !== undefined) {
    if (q.repo === '') where.push('s.repository IS NULL');
    else {
      where.push('s.repository = @repo');
      params.repo = q.repo;
    }
  }
  const span = WINDOW_MS[q.window];
  if (span !== null) {
    where.push('s.last_ts >= @since');
    params.since = now - span;
  }
  const filter = where.map((w) => `(${w})`).join(' AND ');
  const total = (db.prepare(`SELECT count(*) n FROM sessions s WHERE ${filter}`).get(params) as { n: number }).n;
  const after = decodeCursor(q.cursor, 2);
  let page = filter;
  if (after) {
    page += ' AND (coalesce(s.last_ts, 0) < @afterTs OR (coalesce(s.last_ts, 0) = @afterTs AND s.num < @afterNum))';
    params.afterTs = after[0];
    params.afterNum = after[1];
  }
  const rows = db
    .prepare(`SELECT ${SESSION_SUMMARY_COLUMNS} FROM sessions s WHERE ${page} ORDER BY coalesce(s.last_ts, 0) DESC, s.num DESC LIMIT @limit`)
    .all({ ...params, limit: q.limit + 1 }) as SessionRow[];
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const last = shown[shown.length - 1];
  const counts = sessionEventCounts(db, shown.map((r) => r.id));
  return {
    sessions: shown.map((r) => toSessionSummary(r, counts.get(r.id) ?? 0)),
    nextCursor: more && last ? encodeCursor([last.last_ts ?? 0, last.num]) : null,
    total,
  };
}
