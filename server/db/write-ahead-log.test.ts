import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSearchWriteDb } from '../search-index/search-db';
import { openWriteDb } from './open';
import { foldWriteAheadLog, foldWriteAheadLogSoon, WAL_KEEP_BYTES } from './write-ahead-log';

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
      const until = Date.now() + 5000;
      while (walBytes(file) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(walBytes(file)).toBe(0);
    } finally {
      cancel();
    }
  });

  it('shrinks back to WAL_KEEP_BYTES at the next checkpoint that restarts it, for the archive and the search file', () => {
    const { file, w, reader } = grownLog(40);
    expect(walBytes(file)).toBeGreaterThan(40 << 20);
    reader.exec('COMMIT');
    // the next commits: an automatic checkpoint completes, and the write after it restarts the log
    const put = w.prepare('INSERT INTO blobs (b) VALUES (?)');
    for (let i = 0; i < 20; i++) w.transaction(() => put.run(Buffer.alloc(1 << 20, i)))();
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_KEEP_BYTES + (1 << 20) + 65536);
    expect(w.pragma('journal_size_limit', { simple: true })).toBe(WAL_KEEP_BYTES);
    const s = openSearchWriteDb(file, { archiveId: 'a' });
    open.push(s);
    expect(s.pragma('journal_size_limit', { simple: true })).toBe(WAL_KEEP_BYTES);
  });
});
