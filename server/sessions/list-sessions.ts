import type Database from 'better-sqlite3';
import { WINDOW_MS, type SessionListQuery, type SessionListResponse, type SessionSort } from '../../shared/api';
import { familyFiguresCte, sessionFigures } from '../counts/session-events';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { ApiError } from '../http/errors';
import { LISTED_SESSION, SESSION_SUMMARY_COLUMNS, toSessionSummary, type SessionRow } from './session-row';

/** The value each sort orders by; NULL when the session has none (no timestamps, no credit data). */
const SORT_KEY: Record<SessionSort, string> = {
  updated: 's.last_ts',
  duration: 's.last_ts - s.first_ts',
  // the list's own figures (SessionEventCount, SessionErrorCount: the session's and its children's, sessionFigures)
  events: 'ff.events',
  errors: 'ff.errors',
  tokens: 's.tokens_in + s.tokens_out',
  credits: 's.credits_nano',
};

/**
 * Sessions ordered by `q.sort` (default: last activity, newest first), keyset-paginated, narrowed by repository and
 * time window. A session without a value for the key sorts after every other one, in either direction: its NULL
 * becomes a sentinel below (descending) or above (ascending) every real value, so one comparison pages it.
 */
export function listSessions(
  db: Database.Database,
  q: Omit<SessionListQuery, 'sort' | 'dir'> & Partial<Pick<SessionListQuery, 'sort' | 'dir'>>,
  now = Date.now(),
): SessionListResponse {
  const sort = q.sort ?? 'updated';
  const order = q.dir ?? 'desc';
  const where: string[] = [LISTED_SESSION];
  const params: Record<string, unknown> = {};
  if (q.children === '0') where.push('s.is_child = 0');
  if (q.source !== undefined) {
    where.push('s.source = @source');
    params.source = q.source;
  }
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
  const desc = order === 'desc';
  const key = `coalesce(${SORT_KEY[sort]}, ${desc ? -1 : Number.MAX_SAFE_INTEGER})`;
  const [lt, dir] = desc ? ['<', 'DESC'] : ['>', 'ASC'];
  // the cursor names its order: one from another sort would page from the wrong place
  const after = decodeCursor(q.cursor, 4);
  let page = filter;
  if (after) {
    if (after[0] !== sort || after[1] !== order) throw new ApiError(400, 'bad_cursor', 'the cursor belongs to another order of the list; start again without it');
    page += ` AND (${key} ${lt} @afterKey OR (${key} = @afterKey AND s.num ${lt} @afterNum))`;
    params.afterKey = after[2];
    params.afterNum = after[3];
  }
  // sessionFigures' figures of every session the list holds, when it is sorted by one of them: computed once and
  // joined (as a subquery per row, the CTE was computed again for every row: 19 s for the bench archive's 510 sessions)
  const byFigure = sort === 'events' || sort === 'errors';
  const withFigures = byFigure
    ? `WITH RECURSIVE ${familyFiguresCte(` s WHERE ${filter}`)} `
    : '';
  const from = byFigure ? 'sessions s LEFT JOIN family_figures ff ON ff.root = s.id' : 'sessions s';
  const rows = db
    .prepare(`${withFigures}SELECT ${SESSION_SUMMARY_COLUMNS}, ${key} AS sort_key FROM ${from} WHERE ${page} ORDER BY sort_key ${dir}, s.num ${dir} LIMIT @limit`)
    .all({ ...params, limit: q.limit + 1 }) as (SessionRow & { sort_key: number })[];
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const last = shown[shown.length - 1];
  const figures = sessionFigures(db, shown.map((r) => r.id));
  return {
    sessions: shown.map((r) => toSessionSummary(r, figures.get(r.id)!)),
    nextCursor: more && last ? encodeCursor([sort, order, last.sort_key, last.num]) : null,
    total,
  };
}
