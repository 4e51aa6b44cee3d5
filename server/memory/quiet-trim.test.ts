import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_RELEASE_MS, QuietTrim } from './quiet-trim';

describe('QuietTrim', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('trims once, quietMs after the last activity, and not again until there is more', () => {
    let trims = 0;
    const q = new QuietTrim(() => trims++, 10_000);
    q.activity(); // t = 0
    vi.advanceTimersByTime(5_000);
    q.activity(); // t = 5 s
    vi.advanceTimersByTime(4_000);
    q.activity(); // t = 9 s
    vi.advanceTimersByTime(9_999); // t = 18.999 s: not yet 10 s of quiet
    expect(trims).toBe(0);
    vi.advanceTimersByTime(1); // t = 19 s
    expect(trims).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(trims).toBe(1);
    q.activity();
    vi.advanceTimersByTime(10_000);
    expect(trims).toBe(2);
  });

  it('keeps one timer however many requests come, and stop() ends it', () => {
    let trims = 0;
    const q = new QuietTrim(() => trims++, 10_000);
    for (let i = 0; i < 1_000; i++) q.activity();
    expect(vi.getTimerCount()).toBe(1);
    q.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(trims).toBe(0);
  });
});

describe('IDLE_RELEASE_MS', () => {
  // Why a worker's idle release waits: V8 shrinks a young generation grown by a burst only at a collection that
  // finds the allocation rate low, measured over the last seconds. A worker with the ingest's room to grow, a burst,
  // then a full collection at once and another IDLE_RELEASE_MS later (fullCollection's way of getting `gc`).
  it('is long enough that a full collection after it shrinks a young generation a burst grew; one at once does not', async () => {
    const code = `
      const v8 = require('node:v8'); const vm = require('node:vm'); const { parentPort, workerData } = require('node:worker_threads');
      v8.setFlagsFromString('--expose-gc'); const gc = vm.runInNewContext('gc');
      const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
      let keep = [];
      for (let i = 0; i < 3e5; i++) { keep.push({ a: 'x' + i, b: [i, i + 1] }); if (keep.length > 1e5) keep = keep.slice(5e4); }
      keep = null;
      gc();
      const atOnce = young();
      setTimeout(() => { gc(); parentPort.postMessage({ atOnce, later: young() }); }, workerData);`;
    const { Worker } = await import('node:worker_threads');
    const w = new Worker(code, { eval: true, workerData: IDLE_RELEASE_MS, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
    const r = await new Promise<{ atOnce: number; later: number }>((resolve, reject) => w.once('message', resolve).once('error', reject));
    await w.terminate();
    expect(r.atOnce).toBeGreaterThan(8 * 2 ** 20);
    expect(r.later).toBeLessThanOrEqual(2 * 2 ** 20);
  }, 20_000);
});
