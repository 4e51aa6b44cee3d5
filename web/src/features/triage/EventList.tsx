import { useInfiniteQuery } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { EventListQuery, TriageEvent } from '../../../../shared/api';
import { Duration } from '../../ui/Duration';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, formatDateTime, plural } from '../../ui/format';
import { RelativeTime } from '../../ui/RelativeTime';
import { useFocusOnArrival } from '../../ui/keys/useFocusOnArrival';
import { useListKeys } from '../../ui/keys/useListKeys';
import { Spinner } from '../../ui/Spinner';
import { visibleText } from '../../ui/visible-text';
import { EstimatedMark } from '../../ui/EstimatedMark';
import { SourceBadge } from '../../ui/SourceBadge';
import { formatTokens, subjectOfEvent, typeLabelOf } from './format';
import { eventListOptions } from './triage.queries';
import { sessionEventHref } from './url';

const ROW_H = 34;

export interface EventListProps {
  events: readonly TriageEvent[];
  total: number;
  /** only "at least total" is known (a text filter counts up to a cap) */
  totalCapped?: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  label: string;
}

/** The rows of the slow-calls list, virtualized against the page scroll; renders props only. */
export function EventList({ events, total, totalCapped = false, hasMore, loadingMore, onLoadMore, label }: EventListProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    if (listRef.current) setScrollMargin(listRef.current.getBoundingClientRect().top + window.scrollY);
  }, [events.length > 0]);
  const v = useWindowVirtualizer({ count: events.length, scrollMargin, estimateSize: () => ROW_H, overscan: 16 });
  const navigate = useNavigate();
  const { selected } = useListKeys({
    title: label,
    noun: 'call',
    count: events.length,
    onOpen: (i) => navigate(sessionEventHref(events[i].sessionId, events[i].id)),
    opens: 'Open the selected call in its session',
    resetKey: events[0]?.id,
    reveal: (i) => {
      v.scrollToIndex(i, { align: 'auto' });
      focusRowWhenRendered(listRef.current, i);
    },
  });
  useFocusOnArrival(listRef, events.length > 0);
  return (
    <div className="triage-events">
      <div className="triage-event triage-event-header" aria-hidden="true">
        <span className="num">Duration</span>
        <span className="num">TTFT</span>
        <span>Type</span>
        <span>Model / tool</span>
        <span className="num" title="Input / output tokens">Tokens</span>
        <span>Session</span>
        <span>Repository</span>
        <span>Started</span>
      </div>
      <ul ref={listRef} className="triage-event-rows" style={{ height: v.getTotalSize() }} aria-label={label} tabIndex={-1}>
        {v.getVirtualItems().map((item) => {
          const e = events[item.index];
          return (
            <li key={e.id} data-index={item.index} style={{ transform: `translateY(${item.start - scrollMargin}px)`, height: item.size }}>
              <EventRow e={e} selected={item.index === selected} />
            </li>
          );
        })}
      </ul>
      <footer className="list-footer">
        <span className="list-footer-count">
          Showing {formatCount(events.length)} of {totalCapped ? `${formatCount(total)}+ events` : plural(total, 'event')}
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

/** The virtualizer renders a row a frame or two after it scrolls there: focus it once it exists. */
function focusRowWhenRendered(list: HTMLElement | null, index: number, frames = 10) {
  const row = list?.querySelector<HTMLElement>(`li[data-index="${index}"] a`);
  if (row) row.focus({ preventScroll: true });
  else if (frames > 0) requestAnimationFrame(() => focusRowWhenRendered(list, index, frames - 1));
}

function EventRow({ e, selected }: { e: TriageEvent; selected: boolean }) {
  const subject = subjectOfEvent(e);
  return (
    <Link
      className={`triage-event${e.status === 'error' ? ' is-error' : ''}${selected ? ' is-selected' : ''}`}
      to={sessionEventHref(e.sessionId, e.id)}
      title={e.error !== null ? visibleText(e.error) : undefined}
      aria-current={selected ? 'true' : undefined}
      data-list-row=""
    >
      <Duration ms={e.dur} className="cell-dur" />
      <span className="num muted">{e.ttft === null ? '' : <Duration ms={e.ttft} />}</span>
      <span className="cell-type">
        {typeLabelOf(e.type)}
        {e.status === 'error' && <span className="badge badge-danger">error</span>}
      </span>
      <span className="cell-subject mono" title={subject}>
        {subject}
      </span>
      <span className="num muted">
        {e.tokensIn === null && e.tokensOut === null ? '' : `${formatTokens(e.tokensIn)} / ${formatTokens(e.tokensOut)}`}
        <EstimatedMark estimated={e.estimated} compact />
      </span>
      <span className="cell-session" title={visibleText(e.sessionTitle ?? e.sessionId)}>
        <SourceBadge source={e.source} /> {visibleText(e.sessionTitle ?? e.sessionId)}
      </span>
      <span className="cell-repo muted" title={visibleText(e.repository ?? '')}>
        {e.repository !== null ? visibleText(e.repository) : '—'}
      </span>
      <span className="muted" title={e.ts === null ? undefined : formatDateTime(e.ts)}>
        <RelativeTime ts={e.ts} />
      </span>
    </Link>
  );
}

/** Fetches the list for the filters and handles loading, errors and the empty case. */
export function ConnectedEventList({ query, label, onClear }: { query: EventListQuery; label: string; onClear: () => void }) {
  const q = useInfiniteQuery(eventListOptions(query));
  const events = useMemo(() => q.data?.pages.flatMap((p) => p.events) ?? [], [q.data]);
  if (q.isPending) return <Spinner label="Loading events" />;
  if (q.isError) return <ErrorInline error={q.error} what="the events" onRetry={() => void q.refetch()} />;
  if (events.length === 0) {
    return (
      <EmptyState title="No events match these filters">
        <button type="button" className="btn btn-small" onClick={onClear}>
          Clear the filters
        </button>
      </EmptyState>
    );
  }
  return (
    <EventList
      events={events}
      total={q.data.pages[0]?.total ?? events.length}
      totalCapped={q.data.pages[0]?.totalCapped ?? false}
      hasMore={q.hasNextPage}
      loadingMore={q.isFetchingNextPage}
      onLoadMore={() => void q.fetchNextPage()}
      label={label}
    />
  );
}
