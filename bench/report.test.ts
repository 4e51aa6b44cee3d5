import { describe, expect, it } from 'vitest';
import { queryRowMet, queryRowTarget } from './report';

describe('a query row is met only against the baseline its target names', () => {
  const rg = { tool: 'rg' as const, status: 200, p95: 2, target: 50 };
  it('says yes or no once the baseline ran', () => {
    expect(queryRowMet({ ...rg, baselineMs: 900 })).toBe(true);
    expect(queryRowMet({ ...rg, baselineMs: 1.5 })).toBe(false);
    expect(queryRowMet({ ...rg, tool: 'jq', baselineMs: 199 })).toBe(false); // ≥ 100× jq
    expect(queryRowMet({ ...rg, tool: 'jq', baselineMs: 200 })).toBe(true);
  });
  // A machine without ripgrep wrote "yes" under "faster than rg" for every search row (stop 20's first bench).
  it('says neither when the baseline could not run, unless its own part is missed', () => {
    expect(queryRowMet({ ...rg, baselineMs: null })).toBe(null);
    expect(queryRowMet({ ...rg, p95: 51, baselineMs: null })).toBe(false);
    expect(queryRowMet({ ...rg, status: 500, baselineMs: null })).toBe(false);
  });
  // The phrase row searched for a phrase no generated corpus holds: rg and the server both found nothing, fast, and
  // the row said yes for the path that reads no match at all (every bench from the first to 4f879c3).
  it('a search that finds nothing where rg found files is missed, and one with nothing to find is no measurement', () => {
    expect(queryRowMet({ ...rg, baselineMs: 900, found: 0, baselineFound: 12 })).toBe(false);
    expect(queryRowMet({ ...rg, baselineMs: 900, found: 3, baselineFound: 12 })).toBe(true);
    expect(queryRowMet({ ...rg, baselineMs: 900, found: 0, baselineFound: 0 })).toBe(null);
    expect(queryRowMet({ ...rg, baselineMs: 900, found: 0, baselineFound: null })).toBe(true); // rg not run: not judged by it
  });
  it('judges a row without a baseline by its latency alone', () => {
    expect(queryRowMet({ tool: null, status: 200, p95: 49, target: 50, baselineMs: null })).toBe(true);
    expect(queryRowMet({ tool: null, status: 200, p95: 51, target: 50, baselineMs: null })).toBe(false);
  });
  it('states the target it judges', () => {
    expect(queryRowTarget('jq', 50)).toBe('p95 ≤ 50 ms, ≥ 100× jq');
    expect(queryRowTarget('rg', 50)).toBe('p95 ≤ 50 ms, faster than rg');
    expect(queryRowTarget(null, 100)).toBe('p95 ≤ 100 ms');
  });
});
