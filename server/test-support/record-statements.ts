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

/**
 * Statements that read no part of an answer: the transaction's own, and the response cache's probe of the index's
 * state (db-state.ts), which runs before the handler and only names the state the answer is kept under.
 */
export const NOT_ANSWER_READS = ['BEGIN', 'COMMIT', 'PRAGMA data_version', 'SELECT total_changes()'];

export interface Read {
  sql: string;
  inTransaction: boolean;
}

/** Records every statement and pragma run on `db`, with whether a transaction was open when it ran. */
export function recordReads(db: Database.Database): Read[] {
  const out: Read[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const st = prepare(sql);
    for (const m of ['all', 'get', 'iterate', 'run'] as const) {
      const run = (st[m] as (...a: unknown[]) => unknown).bind(st);
      (st as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
        out.push({ sql, inTransaction: db.inTransaction });
        return run(...a);
      };
    }
    return st;
  }) as typeof db.prepare;
  const pragma = db.pragma.bind(db);
  db.pragma = ((source: string, o?: Database.PragmaOptions) => {
    out.push({ sql: `PRAGMA ${source}`, inTransaction: db.inTransaction });
    return pragma(source, o);
  }) as typeof db.pragma;
  return out;
}

/** How many transactions the recorded reads began, and the answer reads that ran outside one (their SQL, cut). */
export function snapshotsOf(reads: Read[]): { begun: number; outside: string[] } {
  return {
    begun: reads.filter((r) => r.sql === 'BEGIN').length,
    outside: reads.filter((r) => !r.inTransaction && !NOT_ANSWER_READS.includes(r.sql)).map((r) => r.sql.trim().slice(0, 80)),
  };
}
