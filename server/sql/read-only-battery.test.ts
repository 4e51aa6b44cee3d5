import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureDb } from '../test-support/fixture-db';
import { SqlQueryError } from './sql-error';
import { SqlRunner } from './sql-runner';
import { sqlFixtureDb } from './sql-fixture';
import { DERIVED_TABLES } from '../db/schema';

/**
 * Acceptance (hardening issue, item 4): no SQL text the console accepts can modify the database. A battery of
 * hostile statements goes through the console's real path (SqlRunner: text layer, then the console process with
 * its engine checks and read-only connection) while the indexer's write connection is open with frames in the
 * WAL (FORMAT §7 case 34). The database file and its WAL are checksummed before and after; no new file appears
 * beside them; every table keeps its row count. Each case names the failure mode it covers and the outcome
 * expected: refused (a guard said no), error (SQLite failed it), timeout (killed), or rows (harmless, it ran).
 */

type Outcome = 'refused' | 'error' | 'timeout' | 'rows';

interface Case {
  mode: string;
  sql: (dir: string) => string;
  expect: Outcome | Outcome[];
}

const q = (s: string) => () => s;

const BATTERY: Case[] = [
  // Plain writes
  { mode: 'DROP TABLE', sql: q('DROP TABLE sessions'), expect: 'refused' },
  { mode: 'DELETE every event', sql: q('DELETE FROM events'), expect: 'refused' },
  { mode: 'UPDATE', sql: q("UPDATE sessions SET summary = 'pwned'"), expect: 'refused' },
  { mode: 'INSERT', sql: q("INSERT INTO meta (key, value) VALUES ('pwned', '1')"), expect: 'refused' },
  { mode: 'REPLACE INTO (the write, not the function)', sql: q("REPLACE INTO meta (key, value) VALUES ('schema_version', '0')"), expect: 'refused' },
  { mode: 'INSERT … RETURNING (returns rows, still a write)', sql: q("INSERT INTO meta (key, value) VALUES ('x', 'y') RETURNING *"), expect: 'refused' },
  { mode: 'CREATE TABLE', sql: q('CREATE TABLE pwned (a)'), expect: 'refused' },
  { mode: 'CREATE TEMP TABLE (temp schema is writable on a read-only file)', sql: q('CREATE TEMP TABLE pwned (a)'), expect: 'refused' },
  { mode: 'CREATE TRIGGER', sql: q('CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM sessions; END'), expect: 'refused' },
  { mode: 'CREATE INDEX', sql: q('CREATE INDEX pwned ON sessions (summary)'), expect: 'refused' },
  { mode: 'DROP INDEX', sql: q('DROP INDEX idx_sessions_repo'), expect: 'refused' },
  { mode: 'ALTER TABLE', sql: q('ALTER TABLE sessions ADD COLUMN pwned TEXT'), expect: 'refused' },
  { mode: 'ANALYZE (writes sqlite_stat1)', sql: q('ANALYZE'), expect: 'refused' },
  { mode: 'REINDEX', sql: q('REINDEX'), expect: 'refused' },
  { mode: 'VACUUM in place', sql: q('VACUUM'), expect: 'refused' },
  { mode: 'FTS5 command through INSERT (delete-all)', sql: q("INSERT INTO search_index (search_index) VALUES ('delete-all')"), expect: 'refused' },
  { mode: 'write to an FTS shadow table', sql: q("INSERT INTO search_index_data VALUES (999, x'00')"), expect: 'refused' },
  { mode: 'mixed-case verb', sql: q('dRoP tAbLe sessions'), expect: 'refused' },
  // Writes behind WITH
  { mode: 'INSERT via CTE', sql: q("WITH x AS (SELECT 'k' AS key, 'v' AS value) INSERT INTO meta SELECT * FROM x"), expect: 'refused' },
  { mode: 'DELETE via CTE', sql: q('WITH x AS (SELECT id FROM sessions) DELETE FROM sessions WHERE id IN x'), expect: 'refused' },
  { mode: 'UPDATE via CTE', sql: q("WITH x AS (SELECT 1) UPDATE sessions SET summary = 'pwned'"), expect: 'refused' },
  { mode: 'REPLACE via CTE', sql: q("WITH x AS (SELECT 1) REPLACE INTO meta VALUES ('a', 'b')"), expect: 'refused' },
  // Pragmas
  { mode: 'PRAGMA writable_schema', sql: q('PRAGMA writable_schema = ON'), expect: 'refused' },
  { mode: 'PRAGMA journal_mode (would checkpoint and drop the WAL)', sql: q('PRAGMA journal_mode = DELETE'), expect: 'refused' },
  { mode: 'PRAGMA wal_checkpoint (rewrites the database file)', sql: q('PRAGMA wal_checkpoint(TRUNCATE)'), expect: 'refused' },
  { mode: 'PRAGMA user_version write', sql: q('PRAGMA user_version = 42'), expect: 'refused' },
  { mode: 'PRAGMA query_only = OFF (lift the connection guard)', sql: q('PRAGMA query_only = OFF'), expect: 'refused' },
  { mode: 'wal_checkpoint as a table-valued function', sql: q('SELECT * FROM pragma_wal_checkpoint'), expect: 'error' },
  { mode: 'journal_mode as a table-valued function', sql: q("SELECT * FROM pragma_journal_mode('delete')"), expect: 'error' },
  // Other files
  { mode: 'ATTACH a new file', sql: (d) => `ATTACH DATABASE '${path.join(d, 'pwned.db')}' AS p`, expect: 'refused' },
  { mode: 'ATTACH then CREATE in it', sql: (d) => `ATTACH '${path.join(d, 'pwned.db')}' AS p; CREATE TABLE p.t (a)`, expect: 'refused' },
  { mode: 'VACUUM INTO a new file (allowed by SQLite on read-only connections)', sql: (d) => `VACUUM INTO '${path.join(d, 'copy.db')}'`, expect: 'refused' },
  { mode: 'VACUUM main INTO', sql: (d) => `VACUUM main INTO '${path.join(d, 'copy2.db')}'`, expect: 'refused' },
  { mode: 'writefile() of the sqlite3 shell', sql: (d) => `SELECT writefile('${path.join(d, 'w.txt')}', 'x')`, expect: 'error' },
  { mode: 'readfile() of the sqlite3 shell', sql: q("SELECT readfile('/etc/passwd')"), expect: 'error' },
  { mode: 'sqlite_dbpage (raw page writes)', sql: q('SELECT * FROM sqlite_dbpage'), expect: 'error' },
  // Native code
  { mode: 'load_extension()', sql: q("SELECT load_extension('/tmp/evil.so')"), expect: 'refused' },
  { mode: 'load_extension() with an entry point', sql: q("SELECT load_extension('/tmp/evil.so', 'sqlite3_extension_init')"), expect: 'refused' },
  { mode: 'load_extension as a quoted identifier (passes the text layer; the engine says not authorized)', sql: q('SELECT "load_extension"(\'/tmp/evil.so\')'), expect: 'error' },
  { mode: 'load_extension in brackets', sql: q("SELECT [load_extension]('/tmp/evil.so')"), expect: 'error' },
  { mode: 'fts3_tokenizer pointer registration', sql: q("SELECT fts3_tokenizer('simple', x'4141414141414141')"), expect: 'error' },
  // Several statements
  { mode: 'SELECT …; DROP', sql: q('SELECT 1; DROP TABLE sessions'), expect: 'refused' },
  { mode: 'no spaces around ;', sql: q('SELECT 1;DROP TABLE sessions;'), expect: 'refused' },
  { mode: 'newlines around ;', sql: q('SELECT\n1\n;\nDROP TABLE sessions'), expect: 'refused' },
  { mode: 'WITH …; DROP', sql: q('WITH x AS (SELECT 1) SELECT * FROM x; DROP TABLE sessions'), expect: 'refused' },
  { mode: '; after a block comment', sql: q('SELECT 1 /* x */; DELETE FROM events'), expect: 'refused' },
  { mode: 'line comment then ; on the next line', sql: q('SELECT 1 -- harmless\n; DROP TABLE sessions'), expect: 'refused' },
  { mode: 'BEGIN EXCLUSIVE (would lock the indexer out)', sql: q('BEGIN EXCLUSIVE'), expect: 'refused' },
  { mode: 'SAVEPOINT', sql: q('SAVEPOINT a'), expect: 'refused' },
  { mode: 'EXPLAIN of a write', sql: q('EXPLAIN DELETE FROM sessions'), expect: 'refused' },
  // Comments and strings hiding statements (inert: they run as the SELECT they are)
  { mode: 'DROP inside a block comment', sql: q('SELECT count(*) FROM sessions /* ; DROP TABLE sessions */'), expect: 'rows' },
  { mode: 'DROP inside a leading comment', sql: q('/* DROP TABLE sessions; */ SELECT count(*) FROM sessions'), expect: 'rows' },
  { mode: 'unterminated block comment', sql: q('SELECT 1 /* DROP TABLE sessions'), expect: ['rows', 'error'] },
  { mode: 'DROP inside a string with a doubled quote', sql: q("SELECT 'x''; DROP TABLE sessions; --' AS s"), expect: 'rows' },
  { mode: 'semicolon inside a quoted identifier', sql: q('SELECT "a;DROP TABLE sessions" FROM sessions'), expect: 'error' },
  // Unicode tricks
  { mode: 'NUL byte (SQLite would stop reading there)', sql: q('SELECT 1\u0000; DROP TABLE sessions'), expect: 'refused' },
  { mode: 'bidi override hiding a semicolon', sql: q('SELECT 1 /*\u202E ; */ FROM sessions'), expect: 'refused' },
  { mode: 'full-width semicolon', sql: q('SELECT 1； DROP TABLE sessions'), expect: 'error' },
  { mode: 'full-width DROP', sql: q('ＤＲＯＰ TABLE sessions'), expect: 'refused' },
  { mode: 'zero-width space inside DROP', sql: q('DR\u200BOP TABLE sessions'), expect: 'refused' },
  { mode: 'Cyrillic look-alike SELECT', sql: q('S\u0415LECT 1'), expect: 'refused' },
  { mode: 'U+2028 line separator before ;', sql: q('SELECT 1\u2028; DROP TABLE sessions'), expect: 'refused' },
  { mode: 'no-break space around DROP', sql: q('SELECT 1;\u00A0DROP TABLE sessions'), expect: 'refused' },
  // Size and time
  { mode: 'statement over the length bound', sql: q(`SELECT '${'x'.repeat(200_000)}'`), expect: 'refused' },
  { mode: 'deep nesting (parser stack)', sql: q(`SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`), expect: 'error' },
  { mode: 'recursive CTE bomb (count never ends)', sql: q('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r'), expect: 'timeout' },
  { mode: 'recursive CTE bomb sorted (temp b-tree)', sql: q('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r ORDER BY n DESC'), expect: ['timeout', 'error'] }, // stopped by the time limit or, sorting in memory, by the console's 256 MB cap: whichever comes first
  { mode: 'huge blob allocation', sql: q('SELECT randomblob(2000000000)'), expect: 'error' },
  { mode: 'unbound parameter', sql: q('SELECT ?'), expect: 'error' },
];

function fileDigest(file: string): string {
  return fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : 'absent';
}

let fx: FixtureDb;
let runner: SqlRunner;
const outcomes: { mode: string; outcome: Outcome; message: string }[] = [];

beforeAll(async () => {
  fx = await sqlFixtureDb();
  // The indexer's connection stays open with frames in the WAL, as while the server runs.
  fx.db.prepare("INSERT INTO meta (key, value) VALUES ('battery', 'wal frame') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
  runner = new SqlRunner({ dbPath: fx.dbPath, timeoutMs: 1000 });
}, 60_000);
afterAll(async () => {
  await runner.close();
  fx.cleanup();
});

describe('read-only acceptance: hostile statements leave the database file and its WAL unchanged', () => {
  it(`runs ${BATTERY.length} hostile statements, each answered as expected, and nothing changes`, async () => {
    expect(BATTERY.length).toBeGreaterThanOrEqual(50);
    const wal = `${fx.dbPath}-wal`;
    expect(fs.statSync(wal).size, 'the WAL holds frames').toBeGreaterThan(0);
    const dir = path.dirname(fx.dbPath);
    const before = { db: fileDigest(fx.dbPath), wal: fileDigest(wal), files: fs.readdirSync(dir).sort() };
    const counts = (t: string) => (fx.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    const tables = [...DERIVED_TABLES, 'meta', 'files', 'lines', 'companions', 'workspaces'];
    const rowsBefore = tables.map(counts);

    for (const c of BATTERY) {
      let outcome: Outcome;
      let message = '';
      try {
        await runner.query(c.sql(dir));
        outcome = 'rows';
      } catch (err) {
        if (!(err instanceof SqlQueryError)) throw err;
        message = err.message;
        outcome = err.code === 'sql_refused' ? 'refused' : err.code === 'sql_timeout' ? 'timeout' : 'error';
      }
      outcomes.push({ mode: c.mode, outcome, message });
      const allowed = Array.isArray(c.expect) ? c.expect : [c.expect];
      expect(allowed, `${c.mode}: got ${outcome} (${message})`).toContain(outcome);
    }

    expect(fileDigest(fx.dbPath), 'database file unchanged').toBe(before.db);
    expect(fileDigest(wal), 'WAL unchanged').toBe(before.wal);
    expect(fs.readdirSync(dir).sort(), 'no file created or removed beside the database').toEqual(before.files);
    expect(tables.map(counts), 'row counts unchanged').toEqual(rowsBefore);
    expect(fx.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toBeDefined();
  }, 120_000);

  it('every refusal says why in words', () => {
    for (const o of outcomes.filter((x) => x.outcome !== 'rows')) expect(o.message.length, o.mode).toBeGreaterThan(10);
  });
});
