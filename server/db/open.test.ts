import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReadDb, openWriteDb, READ_CACHE_KB } from './open';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('page caches', () => {
  it('is 16 MB for the writer and 4 MB for each read-only connection (main, read worker, forwarder)', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-open-'));
    const file = path.join(dir, 'index.db');
    const w = openWriteDb(file);
    const r = openReadDb(file);
    try {
      expect(w.pragma('cache_size', { simple: true })).toBe(-16384);
      expect(READ_CACHE_KB).toBe(4096);
      expect(r.pragma('cache_size', { simple: true })).toBe(-4096);
    } finally {
      r.close();
      w.close();
    }
  });
});
