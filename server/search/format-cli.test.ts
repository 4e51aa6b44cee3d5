import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../shared/api/search';
import { formatSearch } from './format-cli';

/** An answer with these totals and no groups: what the heading line is made of. */
const answer = (totals: SearchResponse['totals']): SearchResponse => ({
  query: { terms: [], filters: {}, window: 'all', sort: 'relevance' },
  totals,
  repositories: [],
  groups: [],
  nextCursor: null,
  notYetSearchable: 0,
  tookMs: 2,
});

describe('formatSearch', () => {
  it('groups the digits of its counts, as the search page does', () => {
    const r = answer({ sessions: 1_442, events: 6_000, exact: false, scannedEvents: 6_000 });
    expect(formatSearch('error', r, 0, false).split('\n')[0]).toBe('Search results for "error" (at least 1,442 sessions, at least 6,000 events, all time)');
  });

  it('says "1 session" and "1 event", not "1 sessions"', () => {
    const r = answer({ sessions: 1, events: 1, exact: true, scannedEvents: 1 });
    expect(formatSearch('quokkaflux', r, 0, false).split('\n')[0]).toBe('Search results for "quokkaflux" (1 session, 1 event, all time)');
  });
});
