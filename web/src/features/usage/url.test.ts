import { describe, expect, it } from 'vitest';
import { DEFAULT_USAGE, parseUsageSearch, serializeUsageSearch } from './url';

describe('usage URL state', () => {
  it('defaults are left out and round-trip', () => {
    expect(serializeUsageSearch(DEFAULT_USAGE).toString()).toBe('');
    const s = { window: 'all' as const, repo: '', by: 'day' as const, metric: 'tokens' as const };
    expect(serializeUsageSearch(s).toString()).toBe('window=all&repo=&by=day&metric=tokens');
    expect(parseUsageSearch(serializeUsageSearch(s))).toEqual(s);
  });
  it('bad values fall back to the defaults', () => {
    expect(parseUsageSearch(new URLSearchParams('window=forever&by=hat&metric=x'))).toEqual(DEFAULT_USAGE);
  });
});
