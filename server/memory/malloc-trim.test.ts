import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { trimMalloc } from './malloc-trim';

describe('trimMalloc', () => {
  it("calls glibc's malloc_trim through the SQLite build's function (1: memory given back, 0: none to give)", () => {
    const db = new Database(':memory:');
    try {
      // this machine is glibc; elsewhere the function answers -1
      expect([0, 1]).toContain(trimMalloc(db));
      db.exec('CREATE TABLE t (x); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT randomblob(4096) FROM n');
      db.exec('DROP TABLE t');
      db.pragma('shrink_memory');
      expect([0, 1]).toContain(trimMalloc(db));
      expect(db.prepare('SELECT chronoscope_malloc_trim() IN (0, 1)').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  // last: a build without the function is remembered for the whole process (this module's state)
  it('answers null on a SQLite built without the function (the install could not patch it), and asks once', () => {
    let prepares = 0;
    const stock = {
      prepare() {
        prepares++;
        throw new Error('no such function: chronoscope_malloc_trim');
      },
    } as unknown as Database.Database;
    expect(trimMalloc(stock)).toBeNull();
    expect(trimMalloc(stock)).toBeNull();
    expect(prepares).toBe(1);
  });
});
