import { describe, expect, it } from 'vitest';
import { median, percentile } from './stats';

describe('percentile (nearest rank)', () => {
  it('matches a sorted-array oracle', () => {
    const v = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10];
    expect([percentile(v, 50), percentile(v, 90), percentile(v, 95), percentile(v, 100), percentile(v, 1)]).toEqual([5, 9, 10, 10, 1]);
    expect(median([3])).toBe(3);
    expect(percentile([], 50)).toBeNaN();
  });
});
