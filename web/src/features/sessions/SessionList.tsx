import { useId, useMemo, useRef, type MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionSort, SessionSummary } from '../../../../shared/api';
import { CopyButton } from '../../ui/CopyButton';
import { Duration } from '../../ui/Duration';
import { Badge } from '../../ui/Badge';
import { formatCompact, formatCount, formatCredits, plural, shortId } from '../../ui/format';
import { useFocusOnArrival } from '../../ui/keys/useFocusOnArrival';
import { useListKeys } from '../../ui/keys/useListKeys';
import { RelativeTime } from '../../ui/RelativeTime';
import { lacksShutdown, NO_SHUTDOWN_TEXT, NO_SHUTDOWN_TITLE, SourceBadge } from '../../ui/SourceBadge';
import { visibleText } from '../../ui/visible-text';
import { groupByRepository, repositoryLabel } from './group-by-repository';

export interface SessionListProps {
  sessions: readonly SessionSummary[];
  /** sessions matching the filters on the server (the list may hold fewer: "Load more") */
  total: number;
  /** sessions per repository on the server, for "3 of 12" in group headings */
  repositoryCounts?: ReadonlyMap<string | null, number>;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** the order the server sorted by; absent: not sortable (the skeleton) */
  order?: SessionOrder;
  onSort?: (order: SessionOrder) => void;
}

export interface SessionOrder {
  sort: SessionSort;
  dir: 'asc' | 'desc';
}

/** Columns that are empty for every session shown take no room (no branch anywhere, no credit data). */
export function emptyColumns(sessions: readonly SessionSummary[]): { branch: boolean; credits: boolean } {
  return { branch: sessions.every((s) => s.branch === null), credits: sessions.every((s) => s.credits === null) };
}

export const sessionPath = (id: string) => `/session/${encodeURIComponent(id)}`;

/** The sessions list, grouped by repository; renders props only (ConnectedSessionList fetches). */
export function SessionList({ sessions, total, repositoryCounts, hasMore, loadingMore, onLoadMore, order, onSort }: SessionListProps) {
  const groups = useMemo(() => groupByRepository(sessions), [sessions]);
  // j/k go down the list as it reads: group after group.
  const inOrder = useMemo(() => groups.flatMap((g) => g.sessions), [groups]);
  const baseId = useId();
  const navigate = useNavigate();
  const listRef = useRef<HTMLDivElement>(null);
  const { selected } = useListKeys({
    title: 'Sessions',
    noun: 'session',
    count: inOrder.length,
    onOpen: (i) => navigate(sessionPath(inOrder[i].id)),
    reveal: (i) => {
      const link = listRef.current?.querySelector<HTMLElement>(`li[data-index="${i}"] .session-title`);
      link?.focus({ preventScroll: true });
      link?.scrollIntoView({ block: 'nearest' });
    },
  });
  useFocusOnArrival(listRef, sessions.length > 0);
  let row = 0;
  const empty = emptyColumns(sessions);
  const classes = `session-list${empty.branch ? ' no-branch' : ''}${empty.credits ? ' no-credits' : ''}`;
  return (
    <div className={classes} ref={listRef} tabIndex={-1} role="region" aria-label="Sessions list">
      <SessionListHeader order={order} onSort={onSort} />
      {groups.map((g, i) => {
        const headingId = `${baseId}-repo-${i}`;
        const onServer = repositoryCounts?.get(g.repository);
        return (
          <section key={g.repository ?? '\u0000other'} className="repo-group" aria-labelledby={headingId}>
            <div className="repo-group-header">
              <h2 id={headingId} className={g.repository === null ? 'repo-name is-other' : 'repo-name'}>
                {repositoryLabel(g.repository)}
              </h2>
              <span className="repo-count">
                {onServer !== undefined && onServer > g.sessions.length
                  ? `${formatCount(g.sessions.length)} of ${plural(onServer, 'session')}`
                  : plural(g.sessions.length, 'session')}
              </span>
            </div>
            <ul className="session-rows">
              {g.sessions.map((s) => {
                const index = row++;
                return <SessionRow key={s.id} session={s} index={index} selected={index === selected} />;
              })}
            </ul>
          </section>
        );
      })}
      <footer className="list-footer">
        <span className="list-footer-count">
          Showing {formatCount(sessions.length)} of {plural(total, 'session')}
        </span>
        {hasMore && (
          <button type="button" className="btn" onClick={onLoadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </footer>
    </div>
  );
}

const SORT_LABEL: Record<SessionSort, string> = { updated: 'Last activity', duration: 'Duration', events: 'Events', errors: 'Errors', tokens: 'Tokens', credits: 'Credits' };

function SortButton({ sort, order, onSort, className }: { sort: SessionSort; order?: SessionOrder; onSort?: (o: SessionOrder) => void; className?: string }) {
  const label = SORT_LABEL[sort];
  if (!order || !onSort) return <span className={className}>{label}</span>;
  const active = order.sort === sort;
  // the first click sorts largest (newest) first; clicking the active column flips it
  const next: SessionOrder = { sort, dir: active && order.dir === 'desc' ? 'asc' : 'desc' };
  return (
    <span className={className}>
      <button
        type="button"
        className={`sort-btn${active ? ' is-active' : ''}`}
        aria-pressed={active}
        aria-label={`Sort by ${label.toLowerCase()}${active ? (order.dir === 'desc' ? ', largest first' : ', smallest first') : ''}`}
        title={active ? `Sorted by ${label.toLowerCase()}, ${order.dir === 'desc' ? 'largest' : 'smallest'} first: click to reverse` : `Sort by ${label.toLowerCase()}`}
        onClick={() => onSort(next)}
      >
        {label}
        <span aria-hidden="true" className="sort-arrow">
          {active ? (order.dir === 'desc' ? '↓' : '↑') : ''}
        </span>
      </button>
    </span>
  );
}

function SessionListHeader({ order, onSort }: { order?: SessionOrder; onSort?: (o: SessionOrder) => void }) {
  const sortable = { order, onSort };
  return (
    <div className="session-row session-row-header" role="group" aria-label="Columns">
      <span>Session</span>
      <span>ID</span>
      <span className="col-branch">Branch</span>
      <SortButton sort="updated" {...sortable} />
      <SortButton sort="duration" className="num" {...sortable} />
      <SortButton sort="events" className="num" {...sortable} />
      <SortButton sort="errors" className="num" {...sortable} />
      <SortButton sort="tokens" className="num col-tokens" {...sortable} />
      <SortButton sort="credits" className="num col-credits" {...sortable} />
      <span className="col-models">Models</span>
      <span className="num col-children">Children</span>
    </div>
  );
}

export function SessionRow({ session: s, index, selected = false }: { session: SessionSummary; index?: number; selected?: boolean }) {
  const navigate = useNavigate();
  const path = sessionPath(s.id);
  // The whole row opens the session; the title is the real link (keyboard, middle-click, screen readers).
  const onRowClick = (e: MouseEvent) => {
    if (e.defaultPrevented || (e.target as HTMLElement).closest('a, button')) return;
    if (window.getSelection()?.toString()) return; // selecting text to copy is not a click
    navigate(path);
  };
  const [firstModel, ...moreModels] = s.models;
  return (
    <li className={selected ? 'session-row is-selected' : 'session-row'} onClick={onRowClick} data-index={index}>
      <span className="cell-title">
        <Link
          to={path}
          className={s.title ? 'session-title' : 'session-title is-untitled'}
          title={visibleText(s.title ?? s.id)}
          aria-current={selected ? 'true' : undefined}
          data-list-row=""
        >
          {visibleText(s.title ?? s.id)}
        </Link>
        <SourceBadge source={s.source} />
        {s.imported && (
          <Badge tone="info" title="Read from an OTLP file (chronoscope import), not from Copilot's own logs">
            imported
          </Badge>
        )}
        {s.logDeleted && (
          <Badge tone="warn" title="Copilot deleted this session's log folder; Chronoscope kept what it had indexed">
            log deleted
          </Badge>
        )}
      </span>
      <span className="cell-id">
        <code title={visibleText(s.id)}>{visibleText(shortId(s.id))}</code>
        <CopyButton text={s.id} what="session id" />
      </span>
      <span className="col-branch cell-branch" title={s.branch !== null ? visibleText(s.branch) : undefined}>
        {s.branch !== null ? visibleText(s.branch) : <span className="muted">—</span>}
      </span>
      <RelativeTime ts={s.updatedAt} className="cell-time" />
      <span className="num muted">{s.createdAt !== null && s.updatedAt !== null ? <Duration ms={s.updatedAt - s.createdAt} /> : '—'}</span>
      <span className="num" title={plural(s.eventCount, 'event')}>
        {formatCount(s.eventCount)}
      </span>
      <span className={s.errorCount > 0 ? 'num has-errors' : 'num muted'} title={plural(s.errorCount, 'error')}>
        {formatCount(s.errorCount)}
      </span>
      {lacksShutdown(s) ? (
        // Output tokens alone would read as a small total: say the total is unknown instead.
        <span className="num col-tokens muted" title={`${NO_SHUTDOWN_TITLE}. ${formatCount(s.tokensOut)} output tokens written.`} aria-label={NO_SHUTDOWN_TEXT}>
          ?
        </span>
      ) : (
        <span className={s.tokensIn + s.tokensOut > 0 ? 'num col-tokens' : 'num col-tokens muted'} title={`${formatCount(s.tokensIn)} tokens in, ${formatCount(s.tokensOut)} out`}>
          {formatCompact(s.tokensIn + s.tokensOut)}
        </span>
      )}
      {lacksShutdown(s) ? (
        <span className="num col-credits muted" title={NO_SHUTDOWN_TITLE} aria-label={NO_SHUTDOWN_TEXT}>
          ?
        </span>
      ) : (
        <span
          className={s.credits === null ? 'num col-credits muted' : 'num col-credits'}
          title={s.credits === null ? 'no credit data in these logs' : `${formatCredits(s.credits)} AI credits (US$${(s.credits * 0.01).toFixed(2)})`}
        >
          {formatCredits(s.credits)}
        </span>
      )}
      <span className="col-models cell-models" title={visibleText(s.models.join('\n')) || undefined}>
        {firstModel !== undefined ? visibleText(firstModel) : <span className="muted">—</span>}
        {moreModels.length > 0 && <span className="more"> +{moreModels.length}</span>}
      </span>
      <span className={s.childCount > 0 ? 'num col-children' : 'num col-children muted'} title={plural(s.childCount, 'child session')}>
        {formatCount(s.childCount)}
      </span>
    </li>
  );
}

/** Placeholder rows of the same height as real ones while the first page loads: nothing jumps when it arrives. */
export function SessionListSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <div className="session-list" aria-busy="true" aria-label="Loading sessions">
      <SessionListHeader />
      <div className="repo-group">
        <div className="repo-group-header">
          <span className="skeleton skeleton-heading" />
        </div>
        <ul className="session-rows">
          {Array.from({ length: rows }, (_, i) => (
            <li key={i} className="session-row is-skeleton">
              <span className="skeleton" style={{ width: `${45 + ((i * 37) % 40)}%` }} />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
