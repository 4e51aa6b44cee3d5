import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { archiveIdOf, openSearchWriteDb } from '../search-index/search-db';
import { openReadDb, openWriteDb, READ_CACHE_KB } from './open';
import { ensureSchema } from './schema';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('page caches', () => {
  it('is 8 MB for the writer and 4 MB for each read-only connection (main, read worker, forwarder)', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-open-'));
    const file = path.join(dir, 'index.db');
    const w = openWriteDb(file);
    const r = openReadDb(file);
    try {
      expect(w.pragma('cache_size', { simple: true })).toBe(-8192);
      expect(READ_CACHE_KB).toBe(4096);
      expect(r.pragma('cache_size', { simple: true })).toBe(-4096);
    } finally {
      r.close();
      w.close();
    }
  });
});

describe('page size', () => {
  it('a new archive is made with 16 KiB pages (its search file with SQLite\'s 4 KiB); a file made before keeps its own', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-open-'));
    const file = path.join(dir, 'index.db');
    const w = openWriteDb(file);
    ensureSchema(w);
    const search = openSearchWriteDb(file, { archiveId: archiveIdOf(w)! });
    expect([w.pragma('page_size', { simple: true }), search.pragma('page_size', { simple: true })]).toEqual([16384, 4096]);
    search.close();
    w.close();
    // an archive written with SQLite's 4 KiB pages: opened again, it keeps them, and page counts follow them
    const old = path.join(dir, 'old.db');
    const made = new Database(old);
    made.exec('CREATE TABLE t (x)');
    made.close();
    const reopened = openWriteDb(old);
    expect([reopened.pragma('page_size', { simple: true }), reopened.pragma('wal_autocheckpoint', { simple: true })]).toEqual([4096, 32000]);
    reopened.close();
  });
});
