import type Database from 'better-sqlite3';

/**
 * Prepared statements kept per connection, for read paths run on every request: a search runs the same few
 * statements (and the snippet ones once per shown session), and preparing an FTS5 statement reads the table's
 * structure each time; the read caches check dbState on every request. The SQL text is the key; texts differ
 * only by which filters a query has, so the set stays small (capped all the same).
 */
const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const MAX_STATEMENTS = 256;

export function statement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let st = cache.get(sql);
  if (!st) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    st = db.prepare(sql);
    cache.set(sql, st);
  }
  // pluck is a mode of the statement object: set it on every use, so that no caller inherits another's (a write
  // returns no data and has no such mode: better-sqlite3 throws on pluck() for it)
  return st.reader ? st.pluck(false) : st;
}

/** The first column of each row (a cached statement in pluck mode). */
export function plucked(db: Database.Database, sql: string): Database.Statement {
  return statement(db, sql).pluck(true);
}

/** Tests that record what a search prepares start from an empty cache. */
export function clearStatements(db: Database.Database): void {
  caches.delete(db);
}
