import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../../../shared/api';
import { textOf } from '../../test-support/hostile-text';
import { NoResults } from './NoResults';

const response = (totals: SearchResponse['totals'], filters: SearchResponse['query']['filters'] = {}): SearchResponse => ({
  query: { terms: [], filters, window: '7d', sort: 'relevance' },
  totals,
  repositories: [],
  groups: [],
  nextCursor: null,
  notYetSearchable: 0,
  tookMs: 3,
});
const shown = (r: SearchResponse, q: string) => textOf(renderToStaticMarkup(<NoResults response={r} q={q} setQuery={() => {}} setWindow={() => {}} onSearchAll={() => {}} />));

describe('NoResults', () => {
  // A first page stopped at a common word's newest matches, whose repo: filter kept none, said "No sessions match"
  // and offered a shorter word: the repository's sessions were among the matches it had not read.
  it('a page that stopped at its first matches says how far it read and offers to read them all', () => {
    const t = shown(response({ sessions: 0, events: 0, exact: false, scannedEvents: 6_000 }, { repo: ['acme/infra'] }), 'retry repo:acme/infra');
    expect(t).toContain('No session among the first 6,000 matches of retry repo:acme/infra in the last 7 days.');
    expect(t).toContain('Search all matches');
    expect(t).toContain('Remove repo:acme/infra');
    expect(t).not.toContain('No sessions match');
    expect(t).not.toContain('Try a shorter word');
  });

  it('a search that read every match suggests another query', () => {
    const t = shown(response({ sessions: 0, events: 0, exact: true, scannedEvents: 0 }), 'zqxjvwzqxj');
    expect(t).toContain('No sessions match zqxjvwzqxj in the last 7 days.');
    expect(t).toContain('Search all time');
    expect(t).toContain('Try a shorter word: zqxjvw');
    expect(t).not.toContain('Search all matches');
  });
});
