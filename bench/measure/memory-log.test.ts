import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ThreadSample } from '../../server/memory/thread-memory';
import { threadSample } from '../../server/memory/thread-memory';
import { memoryAt, readMemoryLog } from './memory-log';

const MB = 2 ** 20;
const sample = (thread: string, at: number, heapMb: number, holds: Record<string, number> = {}, rssMb?: number): ThreadSample => ({
  thread,
  at,
  usage: { rss: 0, heapTotal: 0, heapUsed: 0, external: 3 * MB, arrayBuffers: 2 * MB },
  heap: { totalHeapSize: 2 * heapMb * MB, usedHeapSize: heapMb * MB, mallocedMemory: MB, externalMemory: 3 * MB },
  holds,
  ...(rssMb === undefined ? {} : { process: { rss: rssMb * MB, rssAnon: (rssMb - 50) * MB, rssFile: 50 * MB, anonLargest: [{ kb: 65536, sizeKb: 65536 }, { kb: 2048, sizeKb: 4096 }], anonRestKb: 10240, anonCount: 9 } }),
});

describe('memory log', () => {
  it("says where the memory was at a peak: the main sample nearest to it, each other thread's latest up to then", () => {
    const samples = [
      sample('main', 1000, 30, { triageModel: 5 * MB, responseCache: 0 }, 300),
      sample('ingest', 1100, 60, { heapLimit: 80 * MB, liveAfterCollect: 48 * MB }),
      sample('main', 1500, 31, { triageModel: 6 * MB, responseCache: MB }, 410),
      { ...sample('read', 1600, 10, { treeCacheEvents: 1234 }), heap: { ...sample('read', 0, 10).heap, youngSize: 4 * MB } },
      sample('ingest', 1900, 99),
    ];
    expect(memoryAt(samples, 1450)).toBe(
      'RSS 410 (anonymous 360, file 50); ingest: heap 60 used of 120, array buffers 2, external 3, malloced 1 (heapLimit 80, liveAfterCollect 48); ' +
        'main: heap 31 used of 62, array buffers 2, external 3, malloced 1 (triageModel 6, responseCache 1); ' +
        'read: heap 10 used of 20 (young 4), array buffers 2, external 3, malloced 1 (treeCacheEvents 1234); anonymous mappings (resident/size): 64/64 2/4, 7 more 10',
    );
    expect(memoryAt(samples.filter((s) => s.thread !== 'main'), 1450)).toBeNull();
  });

  it('reads back what a thread wrote, skipping a torn last line', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'memlog-')), 'm.jsonl');
    const s = threadSample('main', () => ({ x: 7 }));
    fs.writeFileSync(file, JSON.stringify(s) + '\n{"thread":"ing');
    const back = readMemoryLog(file);
    expect(back.map((b) => [b.thread, b.holds])).toEqual([['main', { x: 7 }]]);
    // the main thread adds the process's resident set by kind (Linux)
    expect(back[0].process!.rss).toBeGreaterThan(back[0].process!.rssAnon);
    fs.rmSync(path.dirname(file), { recursive: true });
  });
});
