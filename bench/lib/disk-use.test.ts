import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { searchDbPath } from '../../server/search-index/search-db';
import { diskPeakSampler, indexBytesOnDisk } from './disk-use';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('the index on disk', () => {
  it('counts the archive, the search file and both write-ahead logs, and the largest total while sampled', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-disk-'));
    const db = path.join(dir, 'index.db');
    expect(indexBytesOnDisk(db)).toBe(0);
    fs.writeFileSync(db, Buffer.alloc(1000));
    fs.writeFileSync(`${db}-wal`, Buffer.alloc(300));
    fs.writeFileSync(searchDbPath(db), Buffer.alloc(20));
    fs.writeFileSync(`${searchDbPath(db)}-wal`, Buffer.alloc(4));
    fs.writeFileSync(`${db}-shm`, Buffer.alloc(32768)); // the shared-memory index is not data
    expect(indexBytesOnDisk(db)).toBe(1324);
    const sampler = diskPeakSampler(db, 10);
    fs.writeFileSync(`${db}-wal`, Buffer.alloc(5000));
    await new Promise((r) => setTimeout(r, 60));
    fs.writeFileSync(`${db}-wal`, Buffer.alloc(0)); // restarted and cut back
    expect(sampler.stop()).toBe(6024);
    expect(indexBytesOnDisk(db)).toBe(1024);
  });
});
