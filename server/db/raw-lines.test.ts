import Database from 'better-sqlite3';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { cliLines, uuid } from '../ingest/cli/cli-fixture';
import { lineFormatOf, processLine } from '../ingest/process-line';
import { IngestStore } from '../ingest/store';
import { forgetArchiveReads, forgetWrittenLines, lastLineId, rawLines, rememberWrittenLine } from './raw-lines';

let db: Database.Database | null = null;
let fx: FixtureDb | null = null;
afterEach(() => {
  db?.close();
  db = null;
  fx?.cleanup();
  fx = null;
});

/** An in-memory database with the archive's two tables of lines (schema.ts: lines and chunks), empty. */
function emptyArchive(): Database.Database {
  const d = new Database(':memory:');
  d.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, data BLOB NOT NULL);
    CREATE TABLE lines (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, generation INTEGER NOT NULL, line_no INTEGER NOT NULL,
      byte_offset INTEGER NOT NULL, kind INTEGER NOT NULL, reason TEXT, chunk_id INTEGER NOT NULL, chunk_pos INTEGER NOT NULL, length INTEGER NOT NULL)`);
  return d;
}

/** One line in one chunk, as the archive stores them (schema.ts: lines and chunks), in the open transaction. */
function archive(d: Database.Database, text: string): void {
  const { lastInsertRowid: chunk } = d.prepare('INSERT INTO chunks (file_id, data) VALUES (1, ?)').run(zlib.deflateRawSync(Buffer.from(text)));
  d.prepare('INSERT INTO lines (file_id, generation, line_no, byte_offset, kind, chunk_id, chunk_pos, length) VALUES (1, 0, 1, 0, 0, ?, 0, ?)').run(chunk, Buffer.byteLength(text));
}

describe('lastLineId', () => {
  it('is 0 for an archive with no lines, then the last line id, through the same statement after each write', () => {
    db = emptyArchive();
    expect(lastLineId(db)).toBe(0);
    archive(db, '{"v":1}');
    archive(db, '{"v":2}');
    expect(lastLineId(db)).toBe(2);
    db.exec('DELETE FROM lines WHERE id = 2');
    expect(lastLineId(db)).toBe(1);
  });
});

describe('rawLines after a rolled-back write', () => {
  it('reads the lines written since, not the rolled-back ones whose chunk ids they took again', () => {
    db = emptyArchive();
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

const CLI_SESSION = uuid(9, 'e');

describe('lines kept as written', () => {
  const bare = () => {
    const d = new Database(':memory:');
    d.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, data BLOB NOT NULL);
      CREATE TABLE lines (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, generation INTEGER NOT NULL, line_no INTEGER NOT NULL,
        byte_offset INTEGER NOT NULL, kind INTEGER NOT NULL, reason TEXT, chunk_id INTEGER NOT NULL, chunk_pos INTEGER NOT NULL, length INTEGER NOT NULL)`);
    return d;
  };

  it('are read back without the archive, as copies, and forgotten with the chunks after a rollback', () => {
    db = bare();
    archive(db, '{"v":"archived"}');
    const buffer = Buffer.from('{"v":"kept"}');
    rememberWrittenLine(db, 1, buffer);
    rememberWrittenLine(db, 2, Buffer.from('{"v":"no archive row"}'));
    buffer.fill(0x20); // the caller's buffer is reused: what was kept is a copy
    // the kept bytes answer, not the chunk: nothing is inflated (and line 2 has no row at all)
    expect(rawLines(db).json(1)).toEqual({ v: 'kept' });
    expect([...rawLines(db).texts([2, 1])]).toEqual([
      [2, '{"v":"no archive row"}'],
      [1, '{"v":"kept"}'],
    ]);
    forgetArchiveReads(db);
    expect(rawLines(db).json(1)).toEqual({ v: 'archived' });
    expect(rawLines(db).text(2)).toBeNull();
  });

  it('are bounded: the oldest go first, past 4096 lines or 4 MB', () => {
    db = bare();
    for (let id = 1; id <= 4097; id++) rememberWrittenLine(db, id, Buffer.from(`{"id":${id}}`));
    expect(rawLines(db).text(1)).toBeNull();
    expect(rawLines(db).text(2)).toBe('{"id":2}');
    forgetArchiveReads(db);
    const mb = Buffer.alloc(1024 * 1024, 0x61);
    for (let id = 1; id <= 5; id++) rememberWrittenLine(db, id, mb);
    expect([1, 2, 3, 4, 5].map((id) => rawLines(db!).bytes(id)?.length ?? null)).toEqual([null, 1024 * 1024, 1024 * 1024, 1024 * 1024, 1024 * 1024]);
  });

  it("the ingest keeps a session's start and a CLI shutdown as it writes them, for the refresh that reads them back", async () => {
    fx = await fixtureDb({});
    const store = new IngestStore(fx.db);
    const write = (file: string, kind: 'main' | 'cli', sid: string, texts: string[]) => {
      const row = store.createFile({ path: file, workspace_dir: null, folder_session_id: sid, session_id: sid, kind, label: null });
      let offset = 0;
      const processed = texts.map((t) => {
        const p = processLine({ bytes: Buffer.from(t), byteOffset: offset, tooLong: false }, lineFormatOf(kind));
        offset += t.length + 1;
        return p;
      });
      const progress = { dev: 1, ino: 1, size: offset, mtime: 0, offset, headHash: 'h', generation: 0, nextLine: texts.length + 1, reconciling: false };
      store.writeBatch(row, processed, progress, texts.map((_, i) => i + 1));
    };
    write('/logs/s1/main.jsonl', 'main', 's1', [
      line({ ts: 1, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: '0000000000000001' }).trimEnd(),
      line({ ts: 2, dur: 5, sid: 's1', type: 'tool_call', name: 'read_file', spanId: '0000000000000002' }).trimEnd(),
    ]);
    write('/cli/c1/events.jsonl', 'cli', CLI_SESSION, cliLines(CLI_SESSION, [
      { at: 0, type: 'session.start', data: { sessionId: CLI_SESSION, context: { cwd: '/home/dev/api' } } },
      { at: 100, type: 'user.message', data: { content: 'Run the tests', turnId: '0' } },
      { at: 900, type: 'session.shutdown', data: { modelMetrics: {}, totalNanoAiu: 7 } },
    ]).trimEnd().split('\n'));
    const idOf = (sid: string, type: string) => (fx!.db.prepare('SELECT e.id FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? AND e.type = ?').get(sid, type) as { id: number }).id;
    // with the archive's chunks gone, only what was kept is read
    fx.db.exec('DELETE FROM chunks');
    expect(rawLines(fx.db).json(idOf('s1', 'session_start'))).toMatchObject({ type: 'session_start' });
    expect(rawLines(fx.db).json(idOf('s1', 'tool_call'))).toBeNull();
    expect(rawLines(fx.db).json(idOf(CLI_SESSION, 'session_start'))).toMatchObject({ type: 'session.start' });
    expect(rawLines(fx.db).json(idOf(CLI_SESSION, 'session.shutdown'))).toMatchObject({ type: 'session.shutdown' });
    expect(rawLines(fx.db).json(idOf(CLI_SESSION, 'user_message'))).toBeNull();
    forgetWrittenLines(fx.db);
    expect(rawLines(fx.db).json(idOf('s1', 'session_start'))).toBeNull();
  });

  it('are forgotten once the refresh has read them (the indexer, after each refresh of the dirty sessions)', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': line({ ts: 1, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: '0000000000000001' }) });
    const id = (fx.db.prepare("SELECT id FROM events WHERE type = 'session_start'").get() as { id: number }).id;
    // the refresh read it from what was kept (no chunk inflated): with the chunks gone, a kept line would still answer
    fx.db.exec('DELETE FROM chunks');
    expect(rawLines(fx.db).json(id)).toBeNull();
  });
});
