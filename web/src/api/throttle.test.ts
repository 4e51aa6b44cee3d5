import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleTrailing } from './throttle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('throttleTrailing', () => {
  it('runs the first call at once and collapses a burst into one trailing call', () => {
    const fn = vi.fn();
    const t = throttleTrailing(fn, 1000);
    t();
    expect(fn).toHaveBeenCalledTimes(1);
    t();
    t();
    t();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('cancel drops a pending trailing call', () => {
    const fn = vi.fn();
    const t = throttleTrailing(fn, 1000);
    t();
    t();
    t.cancel();
    vi.advanceTimersByTime(2000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
