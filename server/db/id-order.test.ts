import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { recordBackfillRun, segmentsNewestFirst } from './id-order';
import { ARCHIVE_DDL } from './schema';

/** An archive with lines 1..n (only their ids matter here). */
function archive(n: number): Database.Database {
  const db = new Database(':memory:');
  db.exec(ARCHIVE_DDL);
  const insert = db.prepare("INSERT INTO lines (id, file_id, generation, line_no, byte_offset, kind, chunk_id, chunk_pos, length) VALUES (?, 1, 0, ?, 0, 0, 1, 0, 1)");
  for (let i = 1; i <= n; i++) insert.run(i, i);
  return db;
}

describe('the order of line ids, newest first', () => {
  it('without a backfill run, every id follows time: one segment read downwards', () => {
    expect(segmentsNewestFirst(archive(30))).toEqual([{ lo: 1, hi: 30, newestFirst: false }]);
    expect(segmentsNewestFirst(archive(0))).toEqual([]);
  });

  it("a backfill's run is read upwards, live ids above it first and the ones below it last", () => {
    const db = archive(40);
    recordBackfillRun(db, 11, 15);
    recordBackfillRun(db, 11, 20); // a later group of the same backfill
    recordBackfillRun(db, 31, 35);
    expect(db.prepare('SELECT lo, hi FROM backfill_runs ORDER BY lo').all()).toEqual([{ lo: 11, hi: 20 }, { lo: 31, hi: 35 }]);
    expect(segmentsNewestFirst(db)).toEqual([
      { lo: 36, hi: 40, newestFirst: false },
      { lo: 31, hi: 35, newestFirst: true },
      { lo: 21, hi: 30, newestFirst: false },
      { lo: 11, hi: 20, newestFirst: true },
      { lo: 1, hi: 10, newestFirst: false },
    ]);
  });

  it('a first backfill from id 1 up to the last id is the one segment', () => {
    const db = archive(12);
    recordBackfillRun(db, 1, 12);
    expect(segmentsNewestFirst(db)).toEqual([{ lo: 1, hi: 12, newestFirst: true }]);
  });

  it('an empty group records nothing; a run past the last id (lines deleted since) is cut to it', () => {
    const db = archive(8);
    recordBackfillRun(db, 9, 8);
    expect(db.prepare('SELECT count(*) FROM backfill_runs').pluck().get()).toBe(0);
    recordBackfillRun(db, 5, 12);
    expect(segmentsNewestFirst(db)).toEqual([
      { lo: 5, hi: 8, newestFirst: true },
      { lo: 1, hi: 4, newestFirst: false },
    ]);
  });
});

describe('small runs', () => {
  it("a run under 1% of the archive's ids (a restart's catch-up) reads as if its ids followed time, in one segment with its neighbours", () => {
    const db = archive(1010);
    recordBackfillRun(db, 1, 900);
    recordBackfillRun(db, 996, 1005); // 10 ids of 1,010
    expect(segmentsNewestFirst(db)).toEqual([
      { lo: 901, hi: 1010, newestFirst: false },
      { lo: 1, hi: 900, newestFirst: true },
    ]);
    recordBackfillRun(db, 996, 1010); // the same catch-up grown to 15 ids: kept
    expect(segmentsNewestFirst(db)).toEqual([
      { lo: 996, hi: 1010, newestFirst: true },
      { lo: 901, hi: 995, newestFirst: false },
      { lo: 1, hi: 900, newestFirst: true },
    ]);
  });
});

describe('an archive from before backfill_runs', () => {
  it('opened read-only without the table: every id follows time', () => {
    const db = archive(5);
    db.exec('DROP TABLE backfill_runs');
    expect(segmentsNewestFirst(db)).toEqual([{ lo: 1, hi: 5, newestFirst: false }]);
  });
});
