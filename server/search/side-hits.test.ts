import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearStatements } from '../db/statements';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { planOf, recordStatements } from '../test-support/record-statements';
import { parseQuery } from './query-parser';
import { fileHits, metaHits } from './side-hits';

// Titles and paths for a term of 1–2 characters (CJK: no trigram): instr over the titles and paths that hold a
// character beyond ASCII, through their partial indexes (schema.ts NON_ASCII_TITLE), ASCII-only ones never read.

const ids = ['a', 'b', 'c', 'd', 'e'].map((c) => `${c.repeat(8)}-1111-4111-8111-111111111111`);
let fx: FixtureDb;

beforeAll(async () => {
  const files: Record<string, string> = {};
  ids.forEach((sid, i) => (files[`${sid}/main.jsonl`] = line({ ts: 1_775_000_000_000 + i, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'hi' } })));
  fx = await fixtureDb(files);
  const title = fx.db.prepare('UPDATE sessions SET title = ?, label = ? WHERE id = ?');
  title.run('日志落盘的顺序', null, ids[0]); // CJK in the title
  title.run('fix the ab test', '磁盘 cleanup', ids[1]); // CJK in the label only
  title.run('about caching', null, ids[2]); // ASCII only
  title.run('naïve résumé', null, ids[3]); // beyond ASCII, no CJK
  title.run(null, null, ids[4]);
  const path = fx.db.prepare('INSERT INTO session_files (session_id, file_path) VALUES (?, ?)');
  path.run(ids[0], '/w/docs/落盘.md');
  path.run(ids[1], '/w/src/ab.ts');
  path.run(ids[2], '/w/数据/盘点.csv');
  path.run(ids[3], '/w/src/disk.ts');
});
afterAll(() => fx.cleanup());

const metaIds = (q: string) => metaHits(fx.db, parseQuery(q)).rows.map((h) => fx.db.prepare('SELECT id FROM sessions WHERE num = ?').pluck().get(h.num)).sort();
const paths = (q: string) => fileHits(fx.db, parseQuery(q)).rows.map((h) => h.path).sort();

describe('titles and paths for a 1–2 character term', () => {
  it('a CJK term: every title, label and path that holds it, and nothing else', () => {
    expect(metaIds('盘')).toEqual([ids[0], ids[1]].sort());
    expect(metaIds('落盘')).toEqual([ids[0]]);
    expect(paths('盘')).toEqual(['/w/docs/落盘.md', '/w/数据/盘点.csv']);
    expect(paths('数据')).toEqual(['/w/数据/盘点.csv']);
    expect(metaIds('磁盘')).toEqual([ids[1]]);
  });

  it('a CJK term reads the titles and paths beyond ASCII through their partial indexes, never every row', () => {
    clearStatements(fx.db); // statements are cached per connection: start empty to see them all prepared
    const recorded = recordStatements(fx.db, () => {
      metaHits(fx.db, parseQuery('盘'));
      fileHits(fx.db, parseQuery('盘'));
    });
    // (the statements before and after place the matches among the lines and read the rows matched: newest-rowids.ts)
    expect(recorded.filter((r) => r.sql.includes('instr')).map((r) => planOf(fx.db, r))).toEqual([
      ['SEARCH sessions USING INDEX sessions_non_ascii (num>? AND num<?)'],
      ['SEARCH session_files USING INDEX session_files_non_ascii (id>? AND id<?)'],
    ]);
  });
});

describe("a title match's sessions", () => {
  it('are read through the covering index of their titles, not their rows', () => {
    clearStatements(fx.db);
    let texts: string[] = [];
    const recorded = recordStatements(fx.db, () => (texts = metaHits(fx.db, parseQuery('cccccccc')).rows.map((h) => h.text)));
    expect(texts).toEqual([`${ids[2]} about caching`]);
    // (the statements before it place the matches among the lines: newest-rowids.ts, newest-first-scan.test.ts)
    expect(recorded.filter((r) => r.sql.includes('title')).map((r) => planOf(fx.db, r).at(-1))).toEqual(['SEARCH s USING COVERING INDEX sessions_titles (num=?)']);
  });

  it('an archive written before that index: the same sessions, through the unique index on num', () => {
    const old = new Database(fx.dbPath);
    old.exec('DROP INDEX sessions_titles');
    try {
      const recorded = recordStatements(old, () => {
        expect(metaHits(old, parseQuery('dddddddd')).rows.map((h) => h.text)).toEqual([`${ids[3]} naïve résumé`]);
        expect(metaHits(old, parseQuery('盘')).rows.length).toBe(2);
      });
      // (its first search looked for the index in sqlite_master: not one of the statements compared)
      // (and the statements that place the matches among the lines: not these either)
      expect(recorded.filter((r) => !r.sql.includes('sqlite_master') && r.sql.includes('title')).map((r) => planOf(old, r).at(-1))).toEqual([
        'SEARCH s USING INDEX sqlite_autoindex_sessions_2 (num=?)',
        'SEARCH sessions USING INDEX sessions_non_ascii (num>? AND num<?)',
        'SEARCH s USING INDEX sqlite_autoindex_sessions_2 (num=?)',
      ]);
    } finally {
      old.exec('CREATE INDEX sessions_titles ON sessions (num, id, title, label)');
      old.close();
    }
  });
});
