import { describe, expect, it } from 'vitest';
import { moveSelection } from '../../ui/keys/list-selection';
import { DEFAULT_SEARCH, hitPath, parseSearchParams, serializeSearchParams } from './url';

describe('search URL state', () => {
  it('defaults are left out', () => {
    expect(serializeSearchParams(DEFAULT_SEARCH).toString()).toBe('');
    expect(parseSearchParams(new URLSearchParams(''))).toEqual(DEFAULT_SEARCH);
  });

  it('round-trips a query with filters, quotes and CJK, a window and the order', () => {
    const s = { q: '落盘 "retry with" repo:acme/api', window: '7d' as const, sort: 'recent' as const };
    expect(parseSearchParams(new URLSearchParams(serializeSearchParams(s).toString()))).toEqual(s);
  });

  it('unknown values fall back to the defaults', () => {
    expect(parseSearchParams(new URLSearchParams('window=1y&sort=best'))).toEqual({ q: '', window: 'all', sort: 'relevance' });
  });

  it('a hit opens its session at the event', () => {
    expect(hitPath('a/b', 42)).toBe('/session/a%2Fb?event=42');
    expect(hitPath('s1', null)).toBe('/session/s1');
  });

  it('a hit carries the search that found it, for the breadcrumb back and the highlight', () => {
    expect(hitPath('s1', 42, { q: 'retry "with backoff"', window: '7d', sort: 'relevance' })).toBe('/session/s1?event=42&from=q%3Dretry%2B%2522with%2Bbackoff%2522%26window%3D7d');
    expect(hitPath('s1', null, { q: 'x', window: 'all', sort: 'relevance' })).toBe('/session/s1?from=q%3Dx');
    expect(hitPath('s1', 3, { q: '  ', window: 'all', sort: 'relevance' })).toBe('/session/s1?event=3');
  });
});

describe('keyboard selection', () => {
  it('j/k and arrows move within the list; the first key selects the first row', () => {
    expect(moveSelection(3, null, 'j')).toBe(0);
    expect(moveSelection(3, 0, 'ArrowDown')).toBe(1);
    expect(moveSelection(3, 2, 'j')).toBe(2);
    expect(moveSelection(3, 1, 'k')).toBe(0);
    expect(moveSelection(3, 0, 'ArrowUp')).toBe(0);
    expect(moveSelection(3, 1, 'End')).toBe(2);
    expect(moveSelection(0, null, 'j')).toBeNull();
  });
});
