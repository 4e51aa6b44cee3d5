import { describe, expect, it } from 'vitest';
import { checkStatementText, MAX_SQL_CHARS, tokenize } from './statement-text';

const accepted = (sql: string) => {
  const r = checkStatementText(sql);
  if (!r.ok) throw new Error(`refused ${JSON.stringify(sql)}: ${r.message}`);
  return r.sql;
};
const reason = (sql: string) => {
  const r = checkStatementText(sql);
  return r.ok ? 'accepted' : r.reason;
};

describe('checkStatementText: what Chronicle refuses by mistake is accepted (FORMAT §7 case 35)', () => {
  it('accepts harmless reads whose text contains write verbs: replace(), LIKE %update%, columns and aliases', () => {
    accepted("SELECT replace(summary, 'x', 'y') FROM sessions");
    accepted("SELECT * FROM sessions WHERE summary LIKE '%update%' OR summary LIKE '%DROP TABLE%'");
    accepted('SELECT "delete", [insert], `update` FROM t');
    accepted('SELECT min(ts) AS begin, max(ts) AS end, 1 AS replace FROM events');
    accepted('SELECT updated_at, created_at, deleted_at FROM sessions');
    accepted("SELECT CASE WHEN status = 1 THEN 'failed' ELSE 'ok' END AS outcome FROM events");
  });

  it('accepts words named like Object.prototype members (aliases, columns): they are not forbidden words', () => {
    expect(accepted('SELECT 1 AS constructor, 2 AS toString, 3 AS __proto__, 4 AS hasOwnProperty, 5 AS valueOf')).toBe('SELECT 1 AS constructor, 2 AS toString, 3 AS __proto__, 4 AS hasOwnProperty, 5 AS valueOf');
    expect(reason('constructor')).toBe('not_select');
    expect(checkStatementText('constructor FROM events')).toEqual({ ok: false, reason: 'not_select', message: 'only a SELECT or WITH statement can run here, not "constructor"' });
  });

  it('accepts a trailing semicolon (several, and after a comment), WITH … SELECT, and comments', () => {
    expect(accepted('SELECT 1;')).toBe('SELECT 1');
    expect(accepted('SELECT 1 ; ; -- done\n')).toBe('SELECT 1');
    accepted('WITH x AS (SELECT 1 AS n) SELECT n FROM x');
    accepted('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r');
    accepted('/* header */ SELECT 1 -- a ; inside a comment is not a second statement');
    accepted("SELECT ';' AS semi, 'it''s; DROP TABLE x' AS quoted");
    accepted('select 1');
  });

  it('accepts the pragma table-valued functions, which only read', () => {
    accepted("SELECT * FROM pragma_table_info('sessions')");
    accepted('SELECT name FROM pragma_table_list');
  });
});

describe('checkStatementText: refusals, each with its reason', () => {
  it('refuses a semicolon in the middle (a second statement), even behind comments and strings', () => {
    expect(reason('SELECT 1; DROP TABLE sessions')).toBe('multiple_statements');
    expect(reason("SELECT 'a;b'; SELECT 2")).toBe('multiple_statements');
    expect(reason('SELECT 1 /* x */ ; /* y */ SELECT 2')).toBe('multiple_statements');
    expect(reason('SELECT 1 -- comment\n; DELETE FROM turns')).toBe('multiple_statements');
  });

  it('refuses anything but SELECT and WITH first', () => {
    for (const sql of ['DELETE FROM sessions', 'UPDATE sessions SET summary = 1', 'INSERT INTO turns VALUES (1)', 'DROP TABLE events', 'CREATE TABLE x (a)', 'EXPLAIN SELECT 1', 'VALUES (1)', 'BEGIN', 'REINDEX', 'ANALYZE', '(SELECT 1)']) {
      expect(reason(sql), sql).toBe('not_select');
    }
  });

  it('refuses ATTACH, DETACH, PRAGMA, VACUUM and load_extension wherever they stand (unlike Chronicle, PRAGMA data_version too)', () => {
    for (const sql of [
      "ATTACH DATABASE '/tmp/x.db' AS x",
      'DETACH x',
      'PRAGMA writable_schema = ON',
      'PRAGMA data_version',
      "VACUUM INTO '/tmp/copy.db'",
      "SELECT load_extension('/tmp/evil.so')",
      "SELECT LOAD_EXTENSION('x', 'y')",
      'SELECT 1 AS pragma',
    ]) {
      expect(reason(sql), sql).toBe('forbidden_word');
    }
  });

  it('refuses a WITH clause leading into a write', () => {
    expect(reason('WITH x AS (SELECT 1) DELETE FROM sessions')).toBe('write_statement');
    expect(reason('WITH x AS (SELECT 1) INSERT INTO turns (session_id, turn_index) SELECT 1, 2 FROM x')).toBe('write_statement');
    expect(reason('WITH x AS (SELECT 1) UPDATE sessions SET summary = NULL')).toBe('write_statement');
    expect(reason('WITH x AS (SELECT 1) REPLACE INTO meta VALUES (1, 2)')).toBe('write_statement');
  });

  it('refuses an empty statement, a NUL byte, bidi controls outside literals, and a statement over the length bound', () => {
    expect(reason('')).toBe('empty');
    expect(reason('  ;; -- nothing\n')).toBe('empty');
    expect(reason('SELECT 1\u0000; DROP TABLE sessions')).toBe('nul_byte');
    expect(reason('SELECT 1 /* \u202E */ FROM sessions')).toBe('bidi_control');
    expect(reason('SELECT a\u2066b FROM t')).toBe('bidi_control');
    expect(reason("SELECT * FROM turns WHERE user_message LIKE '%\u202E%'"), 'searching logs for bidi characters is fine').toBe('accepted');
    expect(reason(`SELECT '${'x'.repeat(MAX_SQL_CHARS)}'`)).toBe('too_long');
  });

  it('leaves look-alike words to SQLite, which reads them as unknown identifiers (no keyword hides in them)', () => {
    // Full-width semicolon and a zero-width space are identifier characters to SQLite: one word, not a separator.
    expect(tokenize('SELECT 1； DROP').tokens.map((t) => t.kind)).toEqual(['word', 'word', 'word']);
    expect(reason('SELECT 1； DROP TABLE sessions')).toBe('accepted'); // then a syntax error in SQLite
    expect(reason('ＳＥＬＥＣＴ 1')).toBe('not_select');
    expect(reason('DR\u200BOP TABLE sessions')).toBe('not_select');
  });
});

describe('tokenize', () => {
  it('tracks parenthesis depth and keeps literals whole', () => {
    const { tokens } = tokenize("SELECT f('a)b', (1)) FROM [x;y]");
    expect(tokens.map((t) => `${t.kind}:${t.text}@${t.depth}`)).toEqual([
      'word:SELECT@0',
      'word:f@0',
      'open:(@0',
      "string:'a)b'@1",
      'symbol:,@1',
      'open:(@1',
      'word:1@2',
      'close:)@1',
      'close:)@0',
      'word:FROM@0',
      'quoted:[x;y]@0',
    ]);
  });
});
