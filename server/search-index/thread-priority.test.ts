import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { SearchThread } from './search-thread';
import { lowerThisThreadPriority, SEARCH_THREAD_NICE } from './thread-priority';

/** The nice value of each thread of this process (Linux: /proc/self/task/TID/stat, field 19). */
function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-priority-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the search thread\'s priority', () => {
  it.runIf(process.platform === 'linux')('is lowered for that thread alone: every other thread keeps the process\'s', async () => {
    const own = os.getPriority();
    const before = threadNices();
    expect(before.filter((n) => n === SEARCH_THREAD_NICE)).toEqual([]);
    const db = openWriteDb(path.join(dir, 'index.db'));
    ensureSchema(db);
    const search = new SearchThread(db.name);
    try {
      const until = Date.now() + 10_000;
      while (!threadNices().includes(SEARCH_THREAD_NICE) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const during = threadNices();
      expect(during.filter((n) => n === SEARCH_THREAD_NICE)).toHaveLength(1);
      expect(during.filter((n) => n !== SEARCH_THREAD_NICE).every((n) => n === own)).toBe(true);
      expect(os.getPriority()).toBe(own);
    } finally {
      await search.close();
      db.close();
    }
  });

  it('is left alone where setpriority would lower the whole process', () => {
    const own = os.getPriority();
    expect(lowerThisThreadPriority(SEARCH_THREAD_NICE, 'darwin')).toBe(false);
    expect(lowerThisThreadPriority(SEARCH_THREAD_NICE, 'win32')).toBe(false);
    expect(os.getPriority()).toBe(own);
  });
});
