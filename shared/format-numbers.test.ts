import { describe, expect, it } from 'vitest';
import { formatCount, formatCredits, plural } from './format-numbers';

describe('formatCount', () => {
  it('groups digits by thousands', () => {
    expect([0, 999, 6_000, 849_436, 1_325_810_452].map(formatCount)).toEqual(['0', '999', '6,000', '849,436', '1,325,810,452']);
  });
});

describe('plural', () => {
  it('takes the noun in the number of its count, digits grouped', () => {
    expect([plural(0, 'session'), plural(1, 'session'), plural(2, 'session'), plural(12_345, 'event')]).toEqual(['0 sessions', '1 session', '2 sessions', '12,345 events']);
    expect([plural(1, 'child', 'children'), plural(3, 'child', 'children')]).toEqual(['1 child', '3 children']);
  });
});

describe('formatCredits', () => {
  it('groups from 100 up, two decimals from 1, two significant digits below, a dash for unknown', () => {
    expect([1549.0278, 399.291, 100, 99.996, 12.3456, 1, 0.99996, 0.087, 0.0521, 0, null].map(formatCredits)).toEqual([
      '1,549',
      '399',
      '100',
      '100',
      '12.35',
      '1.00',
      '1.00',
      '0.087',
      '0.052',
      '0',
      '—',
    ]);
  });
});
