import { describe, expect, it } from 'vitest';
import { liveStep, seenNewest } from './live-growth';

const at = (total: number, unseen = 0, viewKey = 'v') => ({ total, viewKey, unseen });

describe('live growth', () => {
  it('counts what arrives while the place of the newest is off screen', () => {
    expect(liveStep(at(100), 103, 'v', false, false)).toEqual({ state: at(103, 3), showNewest: false });
    expect(liveStep(at(103, 3), 104, 'v', false, false)).toEqual({ state: at(104, 4), showNewest: false });
  });

  it('with follow on, brings the newest into view and counts nothing', () => {
    expect(liveStep(at(100), 103, 'v', false, true)).toEqual({ state: at(103, 0), showNewest: true });
  });

  it('a fold, a filter or another order that changes the count is not news', () => {
    expect(liveStep(at(100, 2), 300, 'other', false, false)).toEqual({ state: at(300, 0, 'other'), showNewest: false });
    expect(liveStep(at(100, 2), 90, 'v', false, false)).toEqual({ state: at(90, 2), showNewest: false });
  });

  it('what arrives in view counts as seen, and reaching the newest clears the count', () => {
    expect(liveStep(at(10), 12, 'v', true, false)).toEqual({ state: at(12, 0), showNewest: false });
    expect(seenNewest(at(104, 4), true)).toEqual(at(104, 0));
    expect(seenNewest(at(104, 4), false)).toEqual(at(104, 4));
  });
});
