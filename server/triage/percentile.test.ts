import { describe, expect, it } from 'vitest';
import { nearestRankIndex, percentiles, percentilesInPlace, selectKth } from './percentile';

/** The oracle: sort a copy, take the value at 1-based rank ceil(p·n/100). */
function oracle(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.ceil((p * sorted.length) / 100);
  return sorted[Math.max(1, rank) - 1];
}

/** A small deterministic PRNG (mulberry32) so that a failure can be replayed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('nearest-rank percentiles', () => {
  it('follow the textbook examples', () => {
    expect(percentiles([1, 2, 3, 4])).toEqual({ p50: 2, p90: 4, p99: 4, max: 4 });
    expect(percentiles([15, 20, 35, 40, 50])).toEqual({ p50: 35, p90: 50, p99: 50, max: 50 });
    expect(percentiles([7])).toEqual({ p50: 7, p90: 7, p99: 7, max: 7 });
    expect(percentiles([])).toBeNull();
  });

  it('take rank ceil(p·n/100) with no floating-point slip at exact ranks', () => {
    expect(nearestRankIndex(90, 10)).toBe(8);
    expect(nearestRankIndex(99, 100)).toBe(98);
    expect(nearestRankIndex(99, 101)).toBe(99);
    expect(nearestRankIndex(50, 1)).toBe(0);
    for (let n = 1; n < 2000; n++) for (const p of [50, 90, 99]) expect(nearestRankIndex(p, n)).toBe(Math.ceil((p * n) / 100) - 1);
  });

  it('equal the sorted-array oracle on random, skewed and repetitive inputs', () => {
    const r = rng(42);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(r() * (trial < 200 ? 60 : 5000));
      const shape = trial % 3;
      const values = Array.from({ length: n }, () =>
        shape === 0 ? Math.floor(r() * 1000) : shape === 1 ? Math.round(Math.exp(r() * 12)) : Math.floor(r() * 4),
      );
      const got = percentiles(values)!;
      expect(got.p50).toBe(oracle(values, 50));
      expect(got.p90).toBe(oracle(values, 90));
      expect(got.p99).toBe(oracle(values, 99));
      expect(got.max).toBe(Math.max(...values));
    }
  });

  it('work on a sub-range of a shared buffer without touching the rest', () => {
    const a = Float64Array.from([100, 5, 3, 9, 1, 7, -100]);
    expect(percentilesInPlace(a, 1, 6)).toEqual({ p50: 5, p90: 9, p99: 9, max: 9 });
    expect(a[0]).toBe(100);
    expect(a[6]).toBe(-100);
  });

  it('selectKth puts the k-th smallest at k on sorted and reversed input', () => {
    const up = Float64Array.from({ length: 1000 }, (_, i) => i);
    selectKth(up, 0, 999, 500);
    expect(up[500]).toBe(500);
    const down = Float64Array.from({ length: 1000 }, (_, i) => 999 - i);
    selectKth(down, 0, 999, 10);
    expect(down[10]).toBe(10);
  });
});
