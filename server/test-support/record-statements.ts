import type Database from 'better-sqlite3';

export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

type StatementMethod = 'all' | 'get' | 'iterate' | 'run';

/**
 * From now until the returned function is called, every statement `db` prepares runs its `methods` through
 * `around(sql, params, run)`, which must call `run()` and return its result: to record it, or to act before or
 * after it. Statements prepared before keep their own methods.
 */
export function tapStatements(
  db: Database.Database,
  methods: readonly StatementMethod[],
  around: (sql: string, params: unknown[], run: () => unknown) => unknown,
): () => void {
  const original = db.prepare;
  db.prepare = ((sql: string) => {
    const stmt = original.call(db, sql);
    for (const method of methods) {
      const run = stmt[method].bind(stmt) as (...a: unknown[]) => unknown;
      (stmt as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => around(sql, params, () => run(...params));
    }
    return stmt;
  }) as typeof db.prepare;
  return () => {
    db.prepare = original;
  };
}

/** Runs `fn` with the SQL and parameters of every statement it prepares and reads recorded, for EXPLAIN QUERY PLAN. */
export function recordStatements(db: Database.Database, fn: () => void, methods: readonly StatementMethod[] = ['all', 'get', 'iterate']): RecordedStatement[] {
  const out: RecordedStatement[] = [];
  const untap = tapStatements(db, methods, (sql, params, run) => {
    out.push({ sql, params });
    return run();
  });
  try {
    fn();
  } finally {
    untap();
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
  tapStatements(db, ['all', 'get', 'iterate', 'run'], (sql, _params, run) => {
    out.push({ sql, inTransaction: db.inTransaction });
    return run();
  });
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
