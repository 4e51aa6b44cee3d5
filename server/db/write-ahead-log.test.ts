import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSearchWriteDb } from '../search-index/search-db';
import { openWriteDb } from './open';
import { ArchiveCheckpointer, foldWriteAheadLog, foldWriteAheadLogSoon, LogRestart, LONG_LOG_BYTES, WAL_KEEP_BYTES, WRITER_AUTOCHECKPOINT_BYTES } from './write-ahead-log';
import { WAIT_MS } from '../test-support/until';

let dir: string | null = null;
const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

/** A writer with a reader holding a snapshot while `mb` MB are written: the log cannot restart and grows. */
function grownLog(mb: number) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-wal-'));
  const file = path.join(dir, 'index.db');
  const w = openWriteDb(file);
  open.push(w);
  w.exec('CREATE TABLE blobs (b BLOB)');
  const reader = new Database(file, { readonly: true });
  open.push(reader);
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM blobs').get(); // the read transaction takes its snapshot here
  const put = w.prepare('INSERT INTO blobs (b) VALUES (?)');
  for (let i = 0; i < mb; i++) w.transaction(() => put.run(Buffer.alloc(1 << 20, i)))();
  return { file, w, reader };
}

describe('the write-ahead log on disk', () => {
  it('is folded into the file and truncated once the reader in the way has finished', () => {
    const { file, w, reader } = grownLog(24);
    expect(walBytes(file)).toBeGreaterThan(24 << 20);
    expect(foldWriteAheadLog(w)).toBe(false); // the reader's snapshot still needs the log
    reader.exec('COMMIT');
    expect(foldWriteAheadLog(w)).toBe(true);
    expect(walBytes(file)).toBe(0);
  });

  it('is tried again until the fold succeeds (an idle server commits nothing, so no automatic checkpoint comes)', async () => {
    const { file, w, reader } = grownLog(24);
    const cancel = foldWriteAheadLogSoon(w, { everyMs: 50, tries: 100 });
    try {
      await new Promise((r) => setTimeout(r, 120));
      expect(walBytes(file)).toBeGreaterThan(24 << 20);
      reader.exec('COMMIT');
      const until = Date.now() + WAIT_MS;
      while (walBytes(file) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(walBytes(file)).toBe(0);
    } finally {
      cancel();
    }
  });

  it('shrinks back to WAL_KEEP_BYTES at the first commit after a checkpoint that completed, for the archive and the search file', () => {
    const { file, w, reader } = grownLog(40);
    expect(walBytes(file)).toBeGreaterThan(40 << 20);
    reader.exec('COMMIT');
    // the search thread's checkpoint completes; the writer's next commit restarts the log and cuts the file
    const checkpointer = new ArchiveCheckpointer(file);
    expect(checkpointer.afterCommit()).toBe(true);
    checkpointer.close();
    const put = w.prepare('INSERT INTO blobs (b) VALUES (?)');
    w.transaction(() => put.run(Buffer.alloc(1 << 20, 1)))();
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_KEEP_BYTES + (1 << 20) + 65536);
    expect(w.pragma('journal_size_limit', { simple: true })).toBe(WAL_KEEP_BYTES);
    const s = openSearchWriteDb(file, { archiveId: 'a' });
    open.push(s);
    expect(s.pragma('journal_size_limit', { simple: true })).toBe(WAL_KEEP_BYTES);
  });
});

describe("the archive's log, checkpointed from another connection (ArchiveCheckpointer)", () => {
  const dbBytes = (file: string) => fs.statSync(file).size;

  it('copies what the writer committed into the database file, at most once per interval, without the writer', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-wal-'));
    const file = path.join(dir, 'index.db');
    const w = openWriteDb(file);
    open.push(w);
    w.exec('CREATE TABLE blobs (b BLOB)');
    const put = w.prepare('INSERT INTO blobs (b) VALUES (?)');
    // 8 MB: far under the writer's own automatic checkpoint, so only the checkpointer moves pages
    for (let i = 0; i < 8; i++) w.transaction(() => put.run(Buffer.alloc(1 << 20, i)))();
    expect(dbBytes(file)).toBeLessThan(1 << 20);
    const checkpointer = new ArchiveCheckpointer(file, 2000);
    expect(checkpointer.afterCommit(10_000)).toBe(true);
    expect(dbBytes(file)).toBeGreaterThan(8 << 20);
    w.transaction(() => put.run(Buffer.alloc(1 << 20, 9)))();
    expect(checkpointer.afterCommit(11_000)).toBe(false); // within the interval
    expect(dbBytes(file)).toBeLessThan(9 << 20);
    expect(checkpointer.afterCommit(12_000)).toBe(true);
    expect(dbBytes(file)).toBeGreaterThan(9 << 20);
    expect(w.prepare('SELECT count(*) n FROM blobs').get()).toEqual({ n: 9 });
    checkpointer.close();
  });

  it('never writes into a file moved aside: the one created in its place is opened instead; a missing file is no error', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-wal-'));
    const file = path.join(dir, 'index.db');
    const old = openWriteDb(file);
    old.exec('CREATE TABLE blobs (b BLOB)');
    const checkpointer = new ArchiveCheckpointer(file, 0);
    expect(checkpointer.afterCommit(1)).toBe(true);
    old.close();
    fs.renameSync(file, `${file}.damaged`);
    for (const ext of ['-wal', '-shm']) fs.rmSync(file + ext, { force: true });
    expect(checkpointer.afterCommit(2)).toBe(false); // no archive at the moment: nothing to do, no throw
    const w = openWriteDb(file);
    open.push(w);
    w.exec('CREATE TABLE blobs (b BLOB)');
    w.transaction(() => w.prepare('INSERT INTO blobs (b) VALUES (?)').run(Buffer.alloc(1 << 20, 1)))();
    const aside = dbBytes(`${file}.damaged`);
    expect(checkpointer.afterCommit(3)).toBe(true);
    expect(dbBytes(file)).toBeGreaterThan(1 << 20);
    expect(dbBytes(`${file}.damaged`)).toBe(aside);
    checkpointer.close();
  });

  it("leaves the writer's own automatic checkpoint as a safety net only, far above a backfill's commit group", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-wal-'));
    const w = openWriteDb(path.join(dir, 'index.db'));
    open.push(w);
    // in pages of the file's own size: 8,000 of 16 KiB
    expect([w.pragma('page_size', { simple: true }), w.pragma('wal_autocheckpoint', { simple: true })]).toEqual([16384, 8000]);
    expect(WRITER_AUTOCHECKPOINT_BYTES).toBeGreaterThanOrEqual(64 << 20);
  });
});

describe('a long log, restarted before the next write (LogRestart)', () => {
  const oneMb = (w: Database.Database, fill: number) => w.transaction(() => w.prepare('INSERT INTO blobs (b) VALUES (?)').run(Buffer.alloc(1 << 20, fill)))();

  it('waits for the reader whose snapshot kept it, checkpoints it to its end, and the next write starts it over', async () => {
    const { file, w, reader } = grownLog(24);
    const restart = new LogRestart(w, { longBytes: 8 << 20, waitMs: 10, tries: 50 });
    restart.afterCommit();
    setTimeout(() => reader.exec('COMMIT'), 60); // the query in the way finishes meanwhile
    expect(await restart.beforeWrite()).toBe(true);
    oneMb(w, 7);
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_KEEP_BYTES + (1 << 20) + 65536);
    expect(w.prepare('SELECT count(*) n FROM blobs').get()).toEqual({ n: 25 });
    expect(await restart.beforeWrite()).toBe(false); // done: not due until a commit leaves the log long again
  });

  it('without it, the reader gone, the next write still appends to the long log (what the backfill under queries did)', () => {
    const { file, w, reader } = grownLog(24);
    reader.exec('COMMIT');
    oneMb(w, 7);
    expect(walBytes(file)).toBeGreaterThan(25 << 20);
  });

  /** A log of 24 MB, and a reader whose snapshot is the latest commit, still reading from the log. */
  function readerOnTheLog() {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-wal-'));
    const file = path.join(dir, 'index.db');
    const w = openWriteDb(file);
    open.push(w);
    w.exec('CREATE TABLE blobs (b BLOB)');
    for (let i = 0; i < 24; i++) oneMb(w, i);
    const reader = new Database(file, { readonly: true });
    open.push(reader);
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM blobs').get();
    return { file, w, reader };
  }

  it('also waits for a reader of the latest commit still reading from the log, which a PASSIVE checkpoint to the end does not', async () => {
    const passive = readerOnTheLog();
    const [r] = passive.w.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    expect(r.checkpointed).toBe(r.log); // checkpointed to its end, and yet:
    oneMb(passive.w, 99);
    expect(walBytes(passive.file)).toBeGreaterThan(25 << 20); // the reader still in the log kept it from restarting
    passive.reader.exec('COMMIT');
    fs.rmSync(dir!, { recursive: true, force: true });

    const { file, w, reader } = readerOnTheLog();
    const restart = new LogRestart(w, { longBytes: 8 << 20, waitMs: 10, tries: 50 });
    restart.afterCommit();
    setTimeout(() => reader.exec('COMMIT'), 60);
    expect(await restart.beforeWrite()).toBe(true);
    oneMb(w, 99);
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_KEEP_BYTES + (1 << 20) + 65536);
  });

  it('gives up after its tries while a reader keeps the log, and is not due after a commit that left the log short', async () => {
    const { w } = grownLog(24);
    const restart = new LogRestart(w, { longBytes: 8 << 20, waitMs: 5, tries: 3 });
    restart.afterCommit();
    expect(await restart.beforeWrite()).toBe(false);
    const short = new LogRestart(w, { longBytes: 64 << 20, waitMs: 5, tries: 3 });
    short.afterCommit();
    expect(await short.beforeWrite()).toBe(false);
    expect(LONG_LOG_BYTES).toBe(2 * WRITER_AUTOCHECKPOINT_BYTES);
  });
});
