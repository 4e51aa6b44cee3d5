import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureDb } from '../test-support/fixture-db';
import { DEFAULT_LIMITS, MAX_ROWS, openConsoleDb, runConsoleQuery, runWithEngineChecks } from './run-console-query';
import { SqlQueryError } from './sql-error';
import { sqlFixtureDb } from './sql-fixture';

let fx: FixtureDb;
let db: ReturnType<typeof openConsoleDb>;
beforeAll(async () => {
  fx = await sqlFixtureDb();
  db = openConsoleDb(fx.dbPath);
});
afterAll(() => {
  db.close();
  fx.cleanup();
});

const numbers = (n: number) => `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < ${n}) SELECT n FROM r`;

function failure(run: () => unknown): SqlQueryError {
  try {
    run();
  } catch (err) {
    if (err instanceof SqlQueryError) return err;
    throw err;
  }
  throw new Error('expected the statement to be refused');
}

describe('runConsoleQuery: results', () => {
  it('returns columns, rows as arrays, and the elapsed time', () => {
    const r = runConsoleQuery(db, "SELECT 1 AS one, 'two' AS two, NULL AS three");
    expect(r.columns).toEqual(['one', 'two', 'three']);
    expect(r.rows).toEqual([[1, 'two', null]]);
    expect(r.truncated).toBe(false);
    expect(r.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('caps rows at 1000: 1001 rows give 1000 and truncated; exactly 1000 and 111 are whole (Chronicle cuts 111 to 100)', () => {
    const over = runConsoleQuery(db, numbers(MAX_ROWS + 1));
    expect(over.rows.length).toBe(MAX_ROWS);
    expect(over.truncated).toBe(true);
    expect(over.truncatedBy).toBe('rows');
    const exact = runConsoleQuery(db, numbers(MAX_ROWS));
    expect(exact.rows.length).toBe(MAX_ROWS);
    expect(exact.truncated).toBe(false);
    expect(runConsoleQuery(db, numbers(111)).rows.length).toBe(111);
  });

  it('stops an endless recursive CTE at the row cap instead of reading it all', () => {
    const r = runConsoleQuery(db, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r');
    expect(r.rows.length).toBe(MAX_ROWS);
    expect(r.truncated).toBe(true);
  });

  it('cuts a long cell with a marker, and stops when the whole result reaches its size bound', () => {
    const long = runConsoleQuery(db, "SELECT printf('%.*c', 50000, 'x') AS big");
    const cell = long.rows[0][0] as string;
    expect(cell.length).toBeLessThan(DEFAULT_LIMITS.maxCellChars + 100);
    expect(cell).toMatch(/… \[30000 more characters\]$/);
    expect(long.cellsCut).toBe(1);
    const sized = runConsoleQuery(db, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 500) SELECT printf('%.*c', 1000, 'y') FROM r", {
      ...DEFAULT_LIMITS,
      maxResultChars: 10_000,
    });
    expect(sized.rows.length).toBe(10);
    expect(sized.truncatedBy).toBe('size');
  });

  it('keeps big integers exact (as text) and shows blobs as a short hex preview', () => {
    const r = runConsoleQuery(db, "SELECT 9007199254740993 AS big, 42 AS small, 1.5 AS real, x'00ff' AS blob, zeroblob(100) AS zeros");
    expect(r.rows[0]).toEqual(['9007199254740993', 42, 1.5, "x'00ff' (blob, 2 bytes)", `x'${'00'.repeat(32)}'… (blob, 100 bytes)`]);
  });

  it('reports SQLite errors as sql_error with SQLite’s message', () => {
    expect(failure(() => runConsoleQuery(db, 'SELECT * FROM no_such_table')).code).toBe('sql_error');
    expect(failure(() => runConsoleQuery(db, 'SELECT * FROM no_such_table')).message).toMatch(/no such table/);
    expect(failure(() => runConsoleQuery(db, 'SELECT 1；')).code).toBe('sql_error'); // full-width semicolon: an unknown token
    expect(failure(() => runConsoleQuery(db, "SELECT * FROM search_index WHERE search_index MATCH '\"unterminated'")).code).toBe('sql_error');
  });
});

describe('the engine layer alone refuses what the text layer also catches (defence in depth)', () => {
  // runWithEngineChecks skips the text layer: each of these reaches SQLite's prepare.
  const out = (name: string) => path.join(fx.root, name);
  const cases: [string, () => string, string][] = [
    ['VACUUM INTO writes a copy even on a read-only connection', () => `VACUUM INTO '${out('vacuumed.db')}'`, 'engine_not_reader'],
    ['ATTACH opens another file', () => `ATTACH DATABASE '${out('attached.db')}' AS x`, 'engine_not_reader'],
    ['PRAGMA writable_schema changes the connection', () => 'PRAGMA writable_schema = ON', 'engine_not_reader'],
    ['CREATE TEMP TABLE writes the temp schema', () => 'CREATE TEMP TABLE z (a)', 'engine_not_reader'],
    ['DELETE', () => 'DELETE FROM sessions', 'engine_not_reader'],
    ['WITH … DELETE', () => 'WITH x AS (SELECT 1) DELETE FROM sessions', 'engine_not_reader'],
    ['INSERT … RETURNING returns rows but writes', () => "INSERT INTO meta (key, value) VALUES ('k', 'v') RETURNING key", 'engine_not_readonly'],
    ['BEGIN IMMEDIATE', () => 'BEGIN IMMEDIATE', 'engine_not_reader'],
    ['two statements', () => 'SELECT 1; DELETE FROM sessions', 'multiple_statements'],
  ];
  for (const [name, sql, reason] of cases) {
    it(name, () => {
      const e = failure(() => runWithEngineChecks(db, sql()));
      expect(e.code).toBe('sql_refused');
      expect(e.reason).toBe(reason);
    });
  }

  it('load_extension() is not authorized by the engine', () => {
    const e = failure(() => runWithEngineChecks(db, "SELECT load_extension('/tmp/nothing.so')"));
    expect(e.code).toBe('sql_error');
    expect(e.message).toMatch(/not authorized/);
  });

  it('left no file behind', () => {
    expect(fs.existsSync(out('vacuumed.db'))).toBe(false);
    expect(fs.existsSync(out('attached.db'))).toBe(false);
  });
});

describe('the connection layer alone refuses writes (read-only file, query_only)', () => {
  it('refuses a write to the database and to the temp schema, even with no guard in front', () => {
    expect(() => db.exec('DELETE FROM sessions')).toThrow(/readonly/);
    expect(() => db.exec('CREATE TEMP TABLE z (a)')).toThrow(/readonly|query_only|attempt to write/);
    expect((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n).toBeGreaterThan(0);
  });
});
