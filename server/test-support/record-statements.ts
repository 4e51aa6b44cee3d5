import type Database from 'better-sqlite3';

export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/** Runs `fn` with the SQL and parameters of every statement it prepares and reads recorded, for EXPLAIN QUERY PLAN. */
export function recordStatements(db: Database.Database, fn: () => void, methods: readonly ('all' | 'get' | 'iterate' | 'run')[] = ['all', 'get', 'iterate']): RecordedStatement[] {
  const out: RecordedStatement[] = [];
  const original = db.prepare;
  db.prepare = ((sql: string) => {
    const stmt = original.call(db, sql);
    for (const method of methods) {
      const run = stmt[method].bind(stmt) as (...a: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        out.push({ sql, params });
        return run(...params);
      };
    }
    return stmt;
  }) as typeof db.prepare;
  try {
    fn();
  } finally {
    db.prepare = original;
  }
  return out;
}

/** The plan of a recorded statement, one step a string. */
export function planOf(db: Database.Database, r: RecordedStatement): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${r.sql}`).all(...r.params) as { detail: string }[]).map((p) => p.detail);
}
