import { describe, expect, it } from 'vitest';
import { liveStep, seenAtEnd } from './follow-live';

const at = (total: number, unseen = 0, viewKey = 'v') => ({ total, viewKey, unseen });

describe('follow live', () => {
  it('counts rows that arrive below the rows on screen', () => {
    expect(liveStep(at(100), 103, 'v', 40, false)).toEqual({ state: at(103, 3), scrollToEnd: false });
    expect(liveStep(at(103, 3), 104, 'v', 40, false)).toEqual({ state: at(104, 4), scrollToEnd: false });
  });

  it('with Follow live on, brings the newest row into view and counts nothing', () => {
    expect(liveStep(at(100), 103, 'v', 40, true)).toEqual({ state: at(103, 0), scrollToEnd: true });
  });

  it('a fold or a filter that changes the row count is not news', () => {
    expect(liveStep(at(100, 2), 300, 'other', 40, false)).toEqual({ state: at(300, 0, 'other'), scrollToEnd: false });
    expect(liveStep(at(100, 2), 90, 'v', 40, false)).toEqual({ state: at(90, 2), scrollToEnd: false });
  });

  it('rows that arrive in view count as seen, and reaching the end clears the count', () => {
    expect(liveStep(at(10), 12, 'v', 11, false)).toEqual({ state: at(12, 0), scrollToEnd: false });
    expect(seenAtEnd(at(104, 4), 103)).toEqual(at(104, 0));
    expect(seenAtEnd(at(104, 4), 90)).toEqual(at(104, 4));
  });
});
