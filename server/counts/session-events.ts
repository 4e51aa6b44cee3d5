import type Database from 'better-sqlite3';
import { KeptWhileUnchanged } from '../db/db-state';
import { statement } from '../db/statements';

/**
 * SessionEventCount (shared/counts.ts) of each session named: the event lines of its log files and of the log
 * files of its child sessions at any depth (parent_id, is_child = 1; forks are sessions of their own), summed from
 * `files.events`, so the figure is the one `index` and /api/health total. One statement for a page of sessions.
 */
export function sessionEventCounts(db: Database.Database, ids: readonly string[]): Map<string, number> {
  const known = keptCounts(db);
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length > 0) {
    for (const id of missing) known.set(id, 0);
    for (const [id, n] of summedCounts(db, missing)) known.set(id, n);
  }
  return new Map(ids.map((id) => [id, known.get(id) ?? 0]));
}

/**
 * The figures already summed on this connection while nothing was committed (dbState). A page of search results or
 * of the list names the same large families again and again: the bench's largest, 1,400 sessions, took ~6 ms to sum,
 * and a search whose first page held it spent a quarter of its ~45 ms here (issue 19, the query rows computed).
 */
const kept = new KeptWhileUnchanged(() => new Map<string, number>());
/** Sessions' figures kept per connection at most: a few MB, whatever is asked between two commits. */
const MAX_KEPT = 50_000;

function keptCounts(db: Database.Database): Map<string, number> {
  return kept.get(db, (counts) => counts.size > MAX_KEPT);
}

function summedCounts(db: Database.Database, ids: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const rows = statement(
    db,
    `WITH RECURSIVE family(root, id) AS (
       SELECT id, id FROM sessions WHERE id IN (SELECT value FROM json_each(?))
       UNION SELECT family.root, c.id FROM sessions c JOIN family ON c.parent_id = family.id AND c.is_child = 1
     )
     SELECT family.root root, coalesce(sum(f.events), 0) n FROM family JOIN files f ON f.session_id = family.id GROUP BY family.root`,
  ).all(JSON.stringify(ids)) as { root: string; n: number }[];
  for (const r of rows) counts.set(r.root, r.n);
  return counts;
}

/** The same for one session. */
export function sessionEventCount(db: Database.Database, id: string): number {
  return sessionEventCounts(db, [id]).get(id) ?? 0;
}
