import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Fetches again what is under `queryKey` after the index committed something (the stream's `indexed`). React Query's
 * invalidation cancels and restarts a running fetch only when its query already has data; a query still on its
 * first fetch keeps that fetch, whose answer then stands as current though it may have been read before the commit.
 * The session page met it: Expand all asks for a new view (a first fetch), a line appended at that moment was
 * committed while that fetch ran, and the tree stayed without the new row until the next commit (the browser test
 * follow-live.spec.ts failed on it once in CI). Such fetches are cancelled first, so that the invalidation starts
 * them again.
 */
export async function refetchAfterCommit(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  await queryClient.cancelQueries({ queryKey, predicate: (q) => q.state.data === undefined && q.state.fetchStatus === 'fetching' });
  await queryClient.invalidateQueries({ queryKey });
}
