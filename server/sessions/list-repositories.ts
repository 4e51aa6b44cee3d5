import type Database from 'better-sqlite3';
import { LISTED_SESSION } from './session-row';
import { WINDOW_MS, type RepositoryListQuery, type RepositoryListResponse } from '../../shared/api';

/**
 * The repositories that have sessions, with their session counts and last activity, for the sessions
 * filter. Counts follow the sessions list's own rules (top-level sessions with events or a deleted log,
 * in the window) so that a repository's count matches what picking it shows. Sessions without a
 * repository come back as `name: null` (the list's `repo=` empty string).
 */
export function listRepositories(db: Database.Database, q: RepositoryListQuery, now = Date.now()): RepositoryListResponse {
  const where = [LISTED_SESSION, 's.is_child = 0'];
  const params: Record<string, unknown> = {};
  const span = WINDOW_MS[q.window];
  if (span !== null) {
    where.push('s.last_ts >= @since');
    params.since = now - span;
  }
  if (q.source !== undefined) {
    where.push('s.source = @source');
    params.source = q.source;
  }
  const rows = db
    .prepare(
      `SELECT s.repository name, count(*) sessions, max(s.last_ts) lastActivity FROM sessions s
       WHERE ${where.join(' AND ')} GROUP BY s.repository ORDER BY coalesce(max(s.last_ts), 0) DESC, s.repository`,
    )
    .all(params) as { name: string | null; sessions: number; lastActivity: number | null }[];
  return { repositories: rows };
}
