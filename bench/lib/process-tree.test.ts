import { describe, expect, it } from 'vitest';
import { parseSchedstat, threadCpuSeconds, threadSchedSeconds } from './process-tree';

/** Keeps this thread on a CPU for `ms`; returns the loop's count (above 0: the loop ran). */
function spin(ms: number): number {
  const until = performance.now() + ms;
  let n = 0;
  while (performance.now() < until) n++;
  return n;
}

describe('threadCpuSeconds', () => {
  it("lists this process's threads in id order, the main thread first, and counts the CPU they spent", () => {
    const before = threadCpuSeconds(process.pid).reduce((a, t) => a + t.seconds, 0);
    const spun = spin(300);
    const threads = threadCpuSeconds(process.pid);
    expect(spun).toBeGreaterThan(0);
    expect(threads[0].tid).toBe(process.pid);
    expect(threads.map((t) => t.tid)).toEqual([...threads.map((t) => t.tid)].sort((a, b) => a - b));
    // 300 ms of spinning, in ticks of 10 ms
    expect(threads.reduce((a, t) => a + t.seconds, 0) - before).toBeGreaterThanOrEqual(0.25);
  });

  it('is empty for a process that does not exist', () => {
    expect(threadCpuSeconds(2 ** 22 + 1)).toEqual([]);
  });
});

describe('parseSchedstat', () => {
  it('reads the nanoseconds on a CPU and the nanoseconds runnable but waiting for one', () => {
    expect(parseSchedstat('55312345678 5612345678 120345\n')).toEqual({ runningSeconds: 55.312345678, waitingSeconds: 5.612345678 });
  });

  it('is null for text that is not a schedstat line', () => {
    expect(parseSchedstat('')).toBeNull();
    expect(parseSchedstat('12 x 3')).toBeNull();
  });
});

describe('threadSchedSeconds', () => {
  it("gives this process's main thread its running time, the threads in id order", () => {
    const spun = spin(200);
    const threads = threadSchedSeconds(process.pid);
    expect(spun).toBeGreaterThan(0);
    expect(threads[0].tid).toBe(process.pid);
    expect(threads[0].runningSeconds).toBeGreaterThanOrEqual(0.2);
    expect(threads.map((t) => t.tid)).toEqual([...threads.map((t) => t.tid)].sort((a, b) => a - b));
  });

  it('is empty for a process that does not exist', () => {
    expect(threadSchedSeconds(2 ** 22 + 1)).toEqual([]);
  });
});
