import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterCommit } from './refetch-after-commit';

// A commit that lands while a query's fetch runs: that fetch may have read the index before it, so the query is fetched
// again once it has answered (React Query alone would keep a first fetch's answer as current, and cancel a refetch).

function deferredFetches() {
  const calls: { resolve: (v: string) => void; reject: (e: Error) => void; signal: AbortSignal }[] = [];
  const queryFn = ({ signal }: { signal: AbortSignal }) => new Promise<string>((resolve, reject) => calls.push({ resolve, reject, signal }));
  return { calls, queryFn };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('refetchAfterCommit', () => {
  it('a query on its first fetch keeps it (its answer is shown), then is fetched again, and the later answer is kept', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { calls, queryFn } = deferredFetches();
    const observer = new QueryObserver(client, { queryKey: ['session', 's1', 'spans', { fold: 'none' }, 0], queryFn });
    const seen: (string | undefined)[] = [];
    const stop = observer.subscribe((r) => seen.push(r.data));
    await tick();
    expect(calls).toHaveLength(1); // the first fetch, begun before the commit
    const refetched = refetchAfterCommit(client, ['session', 's1']);
    await tick();
    expect(calls).toHaveLength(1); // not cancelled and started again: a slow answer's work is not thrown away
    expect(calls[0].signal.aborted).toBe(false);
    calls[0].resolve('122 rows');
    await tick();
    expect(calls).toHaveLength(2); // once it has answered, fetched again: it may have read before the commit
    calls[1].resolve('123 rows');
    await refetched;
    expect(observer.getCurrentResult().data).toBe('123 rows');
    expect(seen.filter((d, k) => d !== undefined && d !== seen[k - 1])).toEqual(['122 rows', '123 rows']); // each result once (a notification per fetch state)
    stop();
  });

  it('commits during one running fetch make one more fetch, whichever of them waited first', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { calls, queryFn } = deferredFetches();
    const observer = new QueryObserver(client, { queryKey: ['session', 's1', 'overview'], queryFn });
    const stop = observer.subscribe(() => {});
    await tick();
    const waits = [refetchAfterCommit(client, ['session', 's1']), refetchAfterCommit(client, ['session', 's1']), refetchAfterCommit(client, ['session'])];
    await tick();
    calls[0].resolve('before');
    await tick();
    expect(calls).toHaveLength(2);
    expect(calls[1].signal.aborted).toBe(false);
    calls[1].resolve('after');
    await Promise.all(waits);
    expect(calls).toHaveLength(2);
    expect(observer.getCurrentResult().data).toBe('after');
    stop();
  });

  it('a refetch running at the commit is kept too, and followed by another; a failed fetch is followed by one as well', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { calls, queryFn } = deferredFetches();
    const observer = new QueryObserver(client, { queryKey: ['sessions', 'list'], queryFn });
    const stop = observer.subscribe(() => {});
    await tick();
    calls[0].resolve('v1');
    await tick();
    void observer.refetch(); // the user's own refresh, or an earlier commit's
    await tick();
    expect(calls).toHaveLength(2);
    const refetched = refetchAfterCommit(client, ['sessions']);
    await tick();
    expect(calls[1].signal.aborted).toBe(false);
    calls[1].reject(new Error('server problem'));
    await tick();
    expect(calls).toHaveLength(3);
    calls[2].resolve('v3');
    await refetched;
    expect(observer.getCurrentResult().data).toBe('v3');
    stop();
  });

  it('a query with data and no fetch running is fetched again at once; queries under other keys are left alone', async () => {
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
