import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../shared/api/search';
import { formatSearch } from './format-cli';

describe('formatSearch', () => {
  it('groups the digits of its counts, as the search page does', () => {
    const r: SearchResponse = {
      query: { terms: [], filters: {}, window: 'all', sort: 'relevance' },
      totals: { sessions: 1_442, events: 6_000, exact: false, scannedEvents: 6_000 },
      repositories: [],
      groups: [],
      nextCursor: null,
      notYetSearchable: 0,
      tookMs: 32,
    };
    expect(formatSearch('error', r, 0, false).split('\n')[0]).toBe('Search results for "error" (at least 1,442 sessions, at least 6,000 events, all time)');
  });

  it('says "1 session" and "1 event", not "1 sessions"', () => {
    const r: SearchResponse = {
      query: { terms: [], filters: {}, window: 'all', sort: 'relevance' },
      totals: { sessions: 1, events: 1, exact: true, scannedEvents: 1 },
      repositories: [],
      groups: [],
      nextCursor: null,
      notYetSearchable: 0,
      tookMs: 2,
    };
    expect(formatSearch('quokkaflux', r, 0, false).split('\n')[0]).toBe('Search results for "quokkaflux" (1 session, 1 event, all time)');
  });
});
