import type Database from 'better-sqlite3';
import { statement } from '../db/statements';

/**
 * SessionEventCount (shared/counts.ts) of each session named: the event lines of its log files and of the log
 * files of its child sessions at any depth (parent_id, is_child = 1; forks are sessions of their own), summed from
 * `files.events`, so the figure is the one `index` and /api/health total. One statement for a page of sessions.
 */
export function sessionEventCounts(db: Database.Database, ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const rows = statement(
    db,
    `WITH RECURSIVE family(root, id) AS (
       SELECT id, id FROM sessions WHERE id IN (SELECT value FROM json_each(?))
       UNION SELECT family.root, c.id FROM sessions c JOIN family ON c.parent_id = family.id AND c.is_child = 1
     )
     SELECT family.root root, coalesce(sum(f.events), 0) n FROM family JOIN files f ON f.session_id = family.id GROUP BY family.root`,
  ).all(JSON.stringify([...new Set(ids)])) as { root: string; n: number }[];
  for (const r of rows) counts.set(r.root, r.n);
  return counts;
}

/** The same for one session. */
export function sessionEventCount(db: Database.Database, id: string): number {
  return sessionEventCounts(db, [id]).get(id) ?? 0;
}
