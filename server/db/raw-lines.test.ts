import Database from 'better-sqlite3';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { IngestStore } from '../ingest/store';
import { forgetArchiveReads, rawLines } from './raw-lines';

let db: Database.Database | null = null;
let fx: FixtureDb | null = null;
afterEach(() => {
  db?.close();
  db = null;
  fx?.cleanup();
  fx = null;
});

/** One line in one chunk, as the archive stores them (schema.ts: lines and chunks), in the open transaction. */
function archive(d: Database.Database, text: string): void {
  const { lastInsertRowid: chunk } = d.prepare('INSERT INTO chunks (file_id, data) VALUES (1, ?)').run(zlib.deflateRawSync(Buffer.from(text)));
  d.prepare('INSERT INTO lines (file_id, generation, line_no, byte_offset, kind, chunk_id, chunk_pos, length) VALUES (1, 0, 1, 0, 0, ?, 0, ?)').run(chunk, Buffer.byteLength(text));
}

describe('rawLines after a rolled-back write', () => {
  it('reads the lines written since, not the rolled-back ones whose chunk ids they took again', () => {
    db = new Database(':memory:');
    db.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, data BLOB NOT NULL);
      CREATE TABLE lines (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, generation INTEGER NOT NULL, line_no INTEGER NOT NULL,
        byte_offset INTEGER NOT NULL, kind INTEGER NOT NULL, reason TEXT, chunk_id INTEGER NOT NULL, chunk_pos INTEGER NOT NULL, length INTEGER NOT NULL)`);
    db.exec('BEGIN');
    archive(db, '{"v":"rolled back"}');
    expect(rawLines(db).json(1)).toEqual({ v: 'rolled back' }); // the group's refresh read it: its chunk is cached
    db.exec('ROLLBACK');
    forgetArchiveReads(db);
    db.exec('BEGIN');
    archive(db, '{"v":"written again"}');
    db.exec('COMMIT');
    expect((db.prepare('SELECT chunk_id c FROM lines WHERE id = 1').get() as { c: number }).c).toBe(1); // the same chunk id
    expect(rawLines(db).json(1)).toEqual({ v: 'written again' });
  });

  it("the ingest's reset after a rolled-back group forgets them (IngestStore.resetCaches)", async () => {
    fx = await fixtureDb({ 's1/main.jsonl': line({ ts: 1, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: '0000000000000001' }) });
    const id = (fx.db.prepare('SELECT max(id) m FROM lines').get() as { m: number }).m;
    const before = rawLines(fx.db).text(id);
    // the same chunk id, other bytes: as when a rolled-back group's chunks are taken by the next group's
    fx.db.prepare('UPDATE chunks SET data = ? WHERE id = (SELECT chunk_id FROM lines WHERE id = ?)').run(zlib.deflateRawSync(Buffer.from('{"v":"next group"}')), id);
    fx.db.prepare('UPDATE lines SET chunk_pos = 0, length = ? WHERE id = ?').run(Buffer.byteLength('{"v":"next group"}'), id);
    expect(rawLines(fx.db).text(id)).not.toBe('{"v":"next group"}'); // still the cached chunk
    new IngestStore(fx.db).resetCaches();
    expect(before).toContain('session_start');
    expect(rawLines(fx.db).text(id)).toBe('{"v":"next group"}');
  });
});
