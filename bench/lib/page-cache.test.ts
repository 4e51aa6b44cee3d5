import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readIntoPageCache } from './page-cache';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('reading the logs into the page cache before a timed pass', () => {
  it('reads every file of a folder tree, and of a list (skipping one that is gone), to its end', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-page-cache-'));
    fs.mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a', 'main.jsonl'), Buffer.alloc(3 * 1024 * 1024 + 7)); // more than one read
    fs.writeFileSync(path.join(dir, 'a', 'b', 'events.jsonl'), 'x'.repeat(10));
    fs.writeFileSync(path.join(dir, 'empty.json'), '');
    expect(readIntoPageCache(dir)).toEqual({ files: 3, bytes: 3 * 1024 * 1024 + 17 });
    expect(readIntoPageCache([path.join(dir, 'a', 'b', 'events.jsonl'), path.join(dir, 'gone.jsonl')])).toEqual({ files: 1, bytes: 10 });
  });
});
