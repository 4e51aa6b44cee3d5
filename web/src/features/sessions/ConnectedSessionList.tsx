import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { plural } from '../../ui/format';
import { inRepositoryAndWindow } from './group-by-repository';
import { repositoryListOptions, sessionListOptions } from './sessions.queries';
import { SessionList, SessionListSkeleton, type SessionOrder } from './SessionList';
import { useNewSessions } from './useNewSessions';
import type { SessionsFilters } from './url';

/** Fetches the sessions for the filters (page by page) and hands them to SessionList. */
export function ConnectedSessionList({
  filters,
  onClearFilters,
  onSort,
  follow,
}: {
  filters: SessionsFilters;
  onClearFilters: () => void;
  onSort: (order: SessionOrder) => void;
  /** keep the newest sessions in view as they arrive */
  follow: boolean;
}) {
  const list = useInfiniteQuery(sessionListOptions(filters));
  const fresh = useNewSessions(list.data?.pages[0]?.total, JSON.stringify(filters), filters.sort === 'updated' && filters.dir === 'desc', follow);
  const repos = useQuery(repositoryListOptions(filters.window));
  const sessions = useMemo(() => list.data?.pages.flatMap((p) => p.sessions) ?? [], [list.data]);
  const repositoryCounts = useMemo(() => new Map(repos.data?.repositories.map((r) => [r.name, r.sessions])), [repos.data]);

  if (list.isPending) return <SessionListSkeleton />;
  if (list.isError && !list.data) return <ErrorInline what="sessions" error={list.error} onRetry={() => void list.refetch()} />;
  const total = list.data.pages[0]?.total ?? 0;
  if (sessions.length === 0) {
    const filtered = filters.repo !== undefined || filters.window !== 'all';
    return (
      <EmptyState title={filtered ? `No sessions${inRepositoryAndWindow(filters.repo, filters.window)}.` : 'No sessions indexed yet.'}>
        {filtered ? (
          <button type="button" className="btn" onClick={onClearFilters}>
            Show all sessions
          </button>
        ) : (
          <p>Sessions appear here as soon as the indexer reads them; the top bar shows its progress.</p>
        )}
      </EmptyState>
    );
  }
  return (
    <div className={list.isPlaceholderData ? 'is-stale' : undefined}>
      {list.isError && <ErrorInline what="more sessions" error={list.error} onRetry={() => void list.refetch()} />}
      {fresh.unseen > 0 && (
        <button type="button" className="new-sessions-pill" onClick={fresh.showNewest}>
          {plural(fresh.unseen, 'new session')} ↑
        </button>
      )}
      <SessionList
        sessions={sessions}
        total={total}
        repositoryCounts={repos.data ? repositoryCounts : undefined}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        order={{ sort: filters.sort, dir: filters.dir }}
        onSort={onSort}
      />
    </div>
  );
}
