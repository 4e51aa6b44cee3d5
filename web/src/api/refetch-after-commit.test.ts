import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterCommit } from './refetch-after-commit';

// A commit that lands while a query's first fetch runs: that fetch may have read the index before it, so the query is
// fetched again (React Query alone would keep the running fetch and call its answer current).

function deferredFetches() {
  const calls: { resolve: (v: string) => void; signal: AbortSignal }[] = [];
  const queryFn = ({ signal }: { signal: AbortSignal }) => new Promise<string>((resolve) => calls.push({ resolve, signal }));
  return { calls, queryFn };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('refetchAfterCommit', () => {
  it('a query on its first fetch is fetched again, and the later answer is the one kept', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { calls, queryFn } = deferredFetches();
    const observer = new QueryObserver(client, { queryKey: ['session', 's1', 'spans', { fold: 'none' }, 0], queryFn });
    const seen: (string | undefined)[] = [];
    const stop = observer.subscribe((r) => seen.push(r.data));
    await tick();
    expect(calls).toHaveLength(1); // the first fetch, begun before the commit
    const refetched = refetchAfterCommit(client, ['session', 's1']);
    await tick();
    expect(calls).toHaveLength(2);
    expect(calls[0].signal.aborted).toBe(true);
    calls[0].resolve('122 rows');
    calls[1].resolve('123 rows');
    await refetched;
    expect(observer.getCurrentResult().data).toBe('123 rows');
    expect(seen).not.toContain('122 rows');
    stop();
  });

  it('a query with data is fetched again as an invalidation does; queries under other keys are left alone', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const mine = deferredFetches();
    const other = deferredFetches();
    const a = new QueryObserver(client, { queryKey: ['session', 's1', 'overview'], queryFn: mine.queryFn });
    const b = new QueryObserver(client, { queryKey: ['session', 's2', 'overview'], queryFn: other.queryFn });
    const stopA = a.subscribe(() => {});
    const stopB = b.subscribe(() => {});
    await tick();
    mine.calls[0].resolve('before');
    other.calls[0].resolve('unrelated');
    await tick();
    const refetched = refetchAfterCommit(client, ['session', 's1']);
    await tick();
    expect(mine.calls).toHaveLength(2);
    mine.calls[1].resolve('after');
    await refetched;
    expect(a.getCurrentResult().data).toBe('after');
    expect(other.calls).toHaveLength(1);
    expect(b.getCurrentResult().data).toBe('unrelated');
    stopA();
    stopB();
  });
});
