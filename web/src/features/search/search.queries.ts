import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SearchResponse } from '../../../../shared/api';
import { ApiRequestError, getJson } from '../../api/client';
import type { SearchViewState } from './url';

export type SearchDepth = 'first' | 'all';

/** Sessions per group when "…and N more" is expanded, page by page. */
export const GROUP_PAGE = 50;

/** Hierarchical keys: `searchKeys.all` refreshes every search when the indexer writes. */
export const searchKeys = {
  all: ['search'] as const,
  results: (s: SearchViewState, depth: SearchDepth) => [...searchKeys.all, 'results', { q: s.q, window: s.window, sort: s.sort, depth }] as const,
  group: (s: SearchViewState, depth: SearchDepth, repository: string | null, cursor: string) =>
    [...searchKeys.all, 'group', { q: s.q, window: s.window, sort: s.sort, depth, repository, cursor }] as const,
};

/** A bad query (400) fails the same way again; only network trouble is worth a retry. */
const retry = (count: number, err: unknown) => !(err instanceof ApiRequestError && err.isClientError) && count < 2;

/**
 * GET /api/search for the URL's query. Each query text is its own cache entry, so a slow answer to an older
 * text can never replace a newer one on screen (react-query also aborts the older request); the previous
 * results stay up while the next ones load, so typing does not flash an empty page.
 */
export function searchOptions(s: SearchViewState, depth: SearchDepth) {
  return queryOptions({
    queryKey: searchKeys.results(s, depth),
    queryFn: ({ signal }) => getJson<SearchResponse>('/api/search', { q: s.q, window: s.window, sort: s.sort, depth }, { signal }),
    enabled: s.q.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 15_000,
    retry,
  });
}

/**
 * One page of the rest of a repository's sessions ("…and N more"), from a group cursor. Pages are plain
 * queries (one per cursor) so that several groups can be expanded at once with useQueries.
 */
export function groupPageOptions(s: SearchViewState, depth: SearchDepth, repository: string | null, cursor: string) {
  return queryOptions({
    queryKey: searchKeys.group(s, depth, repository, cursor),
    queryFn: ({ signal }) =>
      getJson<SearchResponse>('/api/search', { q: s.q, window: s.window, sort: s.sort, depth, group: repository ?? '', cursor, limit: GROUP_PAGE }, { signal }),
    staleTime: 15_000,
    retry,
  });
}
