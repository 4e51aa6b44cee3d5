import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { RepositoryListResponse, SessionListResponse, SessionSource, TimeWindow } from '../../../../shared/api';
import { getJson } from '../../api/client';
import type { SessionsFilters } from './url';

export const SESSIONS_PAGE_SIZE = 100;

/** Hierarchical keys: invalidating `sessionKeys.all` refreshes every list and the repository counts. */
export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  list: (f: SessionsFilters) => [...sessionKeys.lists(), { repo: f.repo ?? null, window: f.window, sort: f.sort, dir: f.dir, source: f.source ?? null }] as const,
  repositories: (window: TimeWindow, source?: SessionSource) => [...sessionKeys.all, 'repositories', { window, source: source ?? null }] as const,
};

/** GET /api/sessions, one page per cursor; "Load more" fetches the next page. */
export function sessionListOptions(f: SessionsFilters) {
  return infiniteQueryOptions({
    queryKey: sessionKeys.list(f),
    queryFn: ({ pageParam, signal }) =>
      getJson<SessionListResponse>('/api/sessions', { repo: f.repo, window: f.window, sort: f.sort, dir: f.dir, source: f.source, cursor: pageParam ?? undefined, limit: SESSIONS_PAGE_SIZE }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Changing a filter keeps the old rows on screen until the new ones arrive: no flash, no jump.
    placeholderData: keepPreviousData,
  });
}

/** GET /api/repositories: names and counts for the repository filter and the group headings. */
export function repositoryListOptions(window: TimeWindow, source?: SessionSource) {
  return queryOptions({
    queryKey: sessionKeys.repositories(window, source),
    queryFn: ({ signal }) => getJson<RepositoryListResponse>('/api/repositories', { window, source }, { signal }),
    placeholderData: keepPreviousData,
  });
}
