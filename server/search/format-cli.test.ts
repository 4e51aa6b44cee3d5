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

  // A scan cut at its first matches, whose filters (repo:, a window) kept none of them, said "at least 0 sessions" and
  // "No sessions found. Try a shorter or different word": matches further on were never read (the held-out corpus,
  // "the repo:platform/infra-tools": 2 sessions from the first 6,000 matches, 4 from all of them).
  it('a cut scan that kept nothing says so, and how to read every match', () => {
    const r = answer({ sessions: 0, events: 0, exact: false, scannedEvents: 6_000 });
    expect(formatSearch('retry repo:"acme/infra"', r, 0, false)).toBe(
      'Search results for "retry repo:"acme/infra"" (none in the first 6,000 matching events, all time)\n' +
        '\n' +
        'No session among the first 6,000 events that match; --depth all reads every match.\n',
    );
  });

  it('an exhaustive scan that found nothing suggests another query', () => {
    const r = answer({ sessions: 0, events: 0, exact: true, scannedEvents: 0 });
    expect(formatSearch('zqxj', r, 0, false).split('\n').slice(0, 3)).toEqual([
      'Search results for "zqxj" (0 sessions, 0 events, all time)',
      '',
      'No sessions found. Try a shorter or different word (a substring works: "Reconnect" finds wsReconnectLoop),',
    ]);
  });
});
