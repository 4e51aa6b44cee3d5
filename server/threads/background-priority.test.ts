import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_NICE } from './background-priority';

/** A thread's nice value as the kernel has it: field 19 of /proc/<pid>/task/<tid>/stat. */
const niceOf = (tid: number) => Number(fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(')').pop()!.trim().split(/\s+/)[16]);

/** Runs runInBackground in a worker thread and reports what it saw (test-support/thread-priority-probe.mjs). */
function inWorker(nice?: number): Promise<{ tid: number | null; result: number | null; niceAfter: number }> {
  const probe = path.join(import.meta.dirname, '../test-support/thread-priority-probe.mjs');
  return new Promise((resolve, reject) => {
    const w = new Worker(probe, { workerData: nice ?? null });
    w.once('message', (m: { tid: number | null; result: number | null; niceAfter: number }) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

describe.runIf(process.platform === 'linux')('runInBackground', () => {
  it('lowers the calling worker thread to BACKGROUND_NICE and leaves the main thread (HTTP) at its own', async () => {
    const mainBefore = niceOf(process.pid);
    const r = await inWorker();
    expect(r.tid).not.toBe(process.pid);
    expect(r.tid).toBeGreaterThan(0);
    expect([r.result, r.niceAfter]).toEqual([Math.max(BACKGROUND_NICE, mainBefore), Math.max(BACKGROUND_NICE, mainBefore)]);
    expect(niceOf(process.pid)).toBe(mainBefore);
  });

  it('keeps a thread that already runs lower where it is', async () => {
    const r = await inWorker(-5); // asks for a higher priority than the thread has: nothing changes
    expect(r.result).toBe(r.niceAfter);
    expect(r.niceAfter).toBe(niceOf(process.pid));
  });
});
