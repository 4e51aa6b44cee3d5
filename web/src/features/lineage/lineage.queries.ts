import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { LineageForestResponse, LineageTraceResponse } from '../../../../shared/api';
import { getJson } from '../../api/client';
import type { ForestFilters, TraceBounds } from './url';

export const FOREST_PAGE_SIZE = 50;

/** Hierarchical keys: invalidating `lineageKeys.all` refreshes every trace and the forest. */
export const lineageKeys = {
  all: ['lineage'] as const,
  traces: () => [...lineageKeys.all, 'trace'] as const,
  trace: (id: string, b: TraceBounds) => [...lineageKeys.traces(), id, { depth: b.depth ?? null, limit: b.limit ?? null }] as const,
  forests: () => [...lineageKeys.all, 'forest'] as const,
  forest: (f: ForestFilters) => [...lineageKeys.forests(), { repo: f.repo ?? null, window: f.window, branching: f.branching }] as const,
};

/** GET /api/lineage/:id: ancestors, descendants, complete / unresolvedParentId. */
export function lineageTraceOptions(id: string, b: TraceBounds = {}) {
  return queryOptions({
    queryKey: lineageKeys.trace(id, b),
    queryFn: ({ signal }) => getJson<LineageTraceResponse>(`/api/lineage/${encodeURIComponent(id)}`, { depth: b.depth, limit: b.limit }, { signal }),
    // a cycle or an unknown id will not fix itself on retry
    retry: (n, err) => n < 2 && !(err as { isClientError?: boolean }).isClientError,
  });
}

/** GET /api/lineage: the trees of a repository / time window, one page of trees per cursor. */
export function lineageForestOptions(f: ForestFilters) {
  return infiniteQueryOptions({
    queryKey: lineageKeys.forest(f),
    queryFn: ({ pageParam, signal }) =>
      getJson<LineageForestResponse>(
        '/api/lineage',
        { repo: f.repo, window: f.window, branching: f.branching ? '1' : undefined, cursor: pageParam ?? undefined, limit: FOREST_PAGE_SIZE },
        { signal },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}
