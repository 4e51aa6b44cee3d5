import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Fetches again what is under `queryKey` after the index committed something (the stream's `indexed`).
 *
 * A fetch running when the commit is announced may have read the index before it. React Query's invalidation would
 * cancel and restart it when its query has data, and keep it as current when it has none (the session page met the
 * latter: Expand all asks for a new view, a line appended at that moment was committed while that fetch ran, and the
 * tree stayed without the new row until the next commit; follow-live.spec.ts failed on it once in CI). Cancelling it
 * instead threw its work away: a session whose answer takes longer than the stream's throttle (a large family during a
 * backfill, when commits come every few seconds) was asked again and again, and its page showed nothing until one answer
 * beat the next commit. So a running fetch is left to answer (its rows are shown) and the query is fetched again once it
 * has; queries not fetching are fetched again at once. Several commits during one fetch make one more fetch, not one each.
 */
export async function refetchAfterCommit(queryClient: QueryClient, queryKey: QueryKey): Promise<void> {
  const running = queryClient.getQueryCache().findAll({ queryKey, fetchStatus: 'fetching' });
  const idle = queryClient.invalidateQueries({ queryKey, predicate: (q) => q.state.fetchStatus !== 'fetching' });
  await Promise.all([idle, ...running.map((q) => fetchAgainAfter(queryClient, q))]);
}

async function fetchAgainAfter(queryClient: QueryClient, query: Query): Promise<void> {
  // a failed or cancelled fetch is its query's business (an error shown, a page left); the refetch below still runs
  await query.promise?.catch(() => undefined);
  // another commit's wait on the same fetch may have started the refetch already: that one began after both commits
  await queryClient.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
}
