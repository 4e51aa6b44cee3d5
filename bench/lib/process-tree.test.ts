import { describe, expect, it } from 'vitest';
import { threadCpuSeconds } from './process-tree';

describe('threadCpuSeconds', () => {
  it("lists this process's threads in id order, the main thread first, and counts the CPU they spent", () => {
    const before = threadCpuSeconds(process.pid).reduce((a, t) => a + t.seconds, 0);
    const until = performance.now() + 300;
    let spin = 0;
    while (performance.now() < until) spin++;
    const threads = threadCpuSeconds(process.pid);
    expect(spin).toBeGreaterThan(0);
    expect(threads[0].tid).toBe(process.pid);
    expect(threads.map((t) => t.tid)).toEqual([...threads.map((t) => t.tid)].sort((a, b) => a - b));
    // 300 ms of spinning, in ticks of 10 ms
    expect(threads.reduce((a, t) => a + t.seconds, 0) - before).toBeGreaterThanOrEqual(0.25);
  });

  it('is empty for a process that does not exist', () => {
    expect(threadCpuSeconds(2 ** 22 + 1)).toEqual([]);
  });
});
