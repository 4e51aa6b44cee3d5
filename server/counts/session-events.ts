import type Database from 'better-sqlite3';
import { KeptWhileUnchanged } from '../db/db-state';
import { statement } from '../db/statements';

/** A session's figures that count its family (itself and its child sessions at any depth). */
export interface SessionFigures {
  /** SessionEventCount (shared/counts.ts) */
  events: number;
  /** SessionErrorCount (shared/counts.ts) */
  errors: number;
}

const NONE: SessionFigures = { events: 0, errors: 0 };

/**
 * SessionEventCount and SessionErrorCount (shared/counts.ts) of each session named, over its log files and those of
 * its child sessions at any depth (parent_id, is_child = 1; forks are sessions of their own): the event lines summed
 * from `files.events`, so the figure is the one `index` and /api/health total, and the failed events summed from
 * each session's `error_count`, the figure its span tree counts. One statement for a page of sessions.
 */
export function sessionFigures(db: Database.Database, ids: readonly string[]): Map<string, SessionFigures> {
  const known = keptFigures(db);
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length > 0) {
    for (const id of missing) known.set(id, NONE);
    for (const [id, f] of summedFigures(db, missing)) known.set(id, f);
  }
  return new Map(ids.map((id) => [id, known.get(id) ?? NONE]));
}

/** SessionEventCount of each session named (sessionFigures' events). */
export function sessionEventCounts(db: Database.Database, ids: readonly string[]): Map<string, number> {
  return new Map([...sessionFigures(db, ids)].map(([id, f]) => [id, f.events]));
}

/**
 * The figures already summed on this connection while nothing was committed (dbState). A page of search results or
 * of the list names the same large families again and again: the bench's largest, 1,400 sessions, took ~6 ms to sum,
 * and a search whose first page held it spent a quarter of its ~45 ms here (issue 19, the query rows computed).
 */
const kept = new KeptWhileUnchanged(() => new Map<string, SessionFigures>());
/** Sessions' figures kept per connection at most: a few MB, whatever is asked between two commits. */
const MAX_KEPT = 50_000;

function keptFigures(db: Database.Database): Map<string, SessionFigures> {
  return kept.get(db, (figures) => figures.size > MAX_KEPT);
}

/**
 * The family (root, id) of the sessions `seeds` selects (a WHERE on sessions): the one recursion behind the figures
 * shown, the list's sorts by them (list-sessions.ts) and the export's size check (otlp-json.ts), so that they agree.
 */
export const familyCte = (seeds: string) => `family(root, id) AS (
       SELECT id, id FROM sessions${seeds}
       UNION SELECT family.root, c.id FROM sessions c JOIN family ON c.parent_id = family.id AND c.is_child = 1
     )`;

/**
 * `family_figures(root, events, errors)`: the SessionFigures of the sessions `seeds` selects, as the clauses of a
 * WITH RECURSIVE: per member its log files' event lines and its failed events, summed per root. Materialized: a list
 * sorted by a figure reads it once a row (a subquery of a plain CTE was computed again for every row).
 */
export const familyFiguresCte = (seeds: string) => `${familyCte(seeds)}, family_figures(root, events, errors) AS MATERIALIZED (
       SELECT family.root, sum(coalesce((SELECT sum(f.events) FROM files f WHERE f.session_id = m.id), 0)), sum(m.error_count)
       FROM family JOIN sessions m ON m.id = family.id GROUP BY family.root)`;

function summedFigures(db: Database.Database, ids: readonly string[]): Map<string, SessionFigures> {
  const figures = new Map<string, SessionFigures>();
  const rows = statement(
    db,
    `WITH RECURSIVE ${familyFiguresCte(' WHERE id IN (SELECT value FROM json_each(?))')} SELECT root, events, errors FROM family_figures`,
  ).all(JSON.stringify(ids)) as { root: string; events: number; errors: number }[];
  for (const r of rows) figures.set(r.root, { events: r.events, errors: r.errors });
  return figures;
}
