import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QuietTrim } from './quiet-trim';

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
