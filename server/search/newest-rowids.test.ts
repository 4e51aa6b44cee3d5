import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { recordBackfillRun } from '../db/id-order';
import { ARCHIVE_DDL } from '../db/schema';
import { newestRowids } from './newest-rowids';

/** An archive with lines 1..30, ids 11..20 given by a backfill (newest session first), and a side table placed among them. */
function archive(places: number[]): Database.Database {
  const db = new Database(':memory:');
  db.exec(ARCHIVE_DDL);
  const insert = db.prepare('INSERT INTO lines (id, file_id, generation, line_no, byte_offset, kind, chunk_id, chunk_pos, length) VALUES (?, 1, 0, ?, 0, 0, 1, 0, 1)');
  for (let i = 1; i <= 30; i++) insert.run(i, i);
  recordBackfillRun(db, 11, 20);
  db.exec('CREATE TABLE side (id INTEGER PRIMARY KEY, line INTEGER)');
  places.forEach((line, i) => db.prepare('INSERT INTO side (id, line) VALUES (?, ?)').run(i + 1, line));
  return db;
}
const PLACE = { table: 'side', line: 'line' };
const read = (db: Database.Database, cap: number) => newestRowids(db, 'SELECT rowid FROM side WHERE 1', {}, cap, PLACE);

describe('a capped read of a side table, newest first by the lines its rows stand at', () => {
  it('reads the lines after the backfill downwards, its run upwards, the lines before it downwards', () => {
    const db = archive([2, 5, 12, 14, 15, 19, 25, 29]);
    expect(read(db, 100)).toEqual({ ids: [8, 7, 3, 4, 5, 6, 2, 1], capped: false });
    expect(read(db, 3)).toEqual({ ids: [8, 7, 3], capped: true });
    expect(read(db, 8)).toEqual({ ids: [8, 7, 3, 4, 5, 6, 2, 1], capped: false });
  });

  it('reads every row once even where a row stands out of order', () => {
    for (const places of [
      [2, 5, 12, 15, 9, 19, 25, 29], // row 5 placed below the run, between two of its rows
      [2, 25, 12, 15, 14, 19, 3, 29], // rows 2 and 7 swapped across the run
      [30, 29, 28, 27, 26, 25, 24, 23], // every row out of order
      [0, 0, 12, 40, 41, 19, 25, 29], // placed before the first line and past the last
    ]) {
      const { ids, capped } = read(archive(places), 100);
      expect([places, [...ids].sort((a, b) => a - b), capped]).toEqual([places, [1, 2, 3, 4, 5, 6, 7, 8], false]);
    }
  });

  it('reads a table with no lines at all, newest row first', () => {
    const db = new Database(':memory:');
    db.exec(ARCHIVE_DDL);
    db.exec('CREATE TABLE side (id INTEGER PRIMARY KEY, line INTEGER)');
    for (let i = 1; i <= 3; i++) db.prepare('INSERT INTO side (id, line) VALUES (?, 0)').run(i);
    expect(read(db, 2)).toEqual({ ids: [3, 2], capped: true });
  });
});
