import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ErrorGroup, ErrorGroupsResponse, EventListQuery, FailureKind } from '../../../../shared/api';
import { Duration } from '../../ui/Duration';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { formatCount, formatDateTime, plural } from '../../ui/format';
import { RelativeTime } from '../../ui/RelativeTime';
import { useFocusOnArrival } from '../../ui/keys/useFocusOnArrival';
import { useListKeys } from '../../ui/keys/useListKeys';
import { useShortcuts } from '../../ui/keys/useShortcuts';
import { Spinner } from '../../ui/Spinner';
import { SourceBadge } from '../../ui/SourceBadge';
import { visibleText } from '../../ui/visible-text';
import { KIND_LABEL, sparklinePoints } from './format';
import { errorGroupsOptions, occurrencesOptions } from './triage.queries';
import { errorGroupsQueryOf, sessionEventHref, triageHref, type TriageState } from './url';

const KINDS: FailureKind[] = ['tool', 'model', 'hook', 'subagent', 'discovery', 'other'];

/** The list filter that selects a group's occurrences: its type, subject column and signature, any duration. */
export function occurrencesFilter(g: Pick<ErrorGroup, 'type' | 'subject' | 'signature'>): Partial<TriageState> {
  const subject = g.type === 'llm_request' ? { model: g.subject } : g.type === 'tool_call' || g.type === 'subagent' ? { tool: g.subject } : { name: g.subject || undefined };
  return { tab: 'slow', type: g.type, sig: g.signature, min: -1, sort: 'ts', ...subject };
}

export function Sparkline({ values, from, bucketMs, label }: { values: readonly number[]; from: number; bucketMs: number; label: string }) {
  const w = 120;
  const h = 22;
  const peak = Math.max(...values);
  const at = values.indexOf(peak);
  return (
    <svg className="sparkline" width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={label}>
      <title>{`${label}; busiest: ${formatCount(peak)} from ${formatDateTime(from + at * bucketMs)}`}</title>
      <polyline points={sparklinePoints(values, w, h)} fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}

function Occurrences({ g, state }: { g: ErrorGroup; state: TriageState }) {
  const f = occurrencesFilter(g);
  const query: EventListQuery = { type: f.type, sig: f.sig, min: -1, sort: 'ts', model: f.model, tool: f.tool, name: f.name, repo: state.repo, source: state.source, window: state.window } as EventListQuery;
  const q = useQuery(occurrencesOptions(query));
  const listRef = useRef<HTMLUListElement>(null);
  const navigate = useNavigate();
  const events = q.data?.events ?? [];
  const linkAt = (i: number) => listRef.current?.querySelectorAll<HTMLElement>('a.occurrence')[i];
  // Its keys act while focus is inside it; Escape goes back to the group's toggle, where j/k move groups again.
  const { selected, setSelected } = useListKeys({
    title: 'Occurrences',
    noun: 'occurrence',
    count: events.length,
    onOpen: (i) => navigate(sessionEventHref(events[i].sessionId, events[i].id)),
    opens: 'Open the selected occurrence in its session',
    accepts: (t) => !!t && !!listRef.current?.contains(t),
    reveal: (i) => {
      linkAt(i)?.focus({ preventScroll: true });
      linkAt(i)?.scrollIntoView({ block: 'nearest' });
    },
  });
  useShortcuts('Occurrences', [
    {
      keys: ['Escape'],
      does: 'Back to the failure group',
      run: (e) => {
        if (!(e.target instanceof Element) || !listRef.current?.contains(e.target)) return false;
        listRef.current.closest('li.error-group')?.querySelector<HTMLElement>('.error-group-toggle')?.focus();
      },
    },
  ]);
  // Opened from the group's toggle (Enter or a click): the keys go on to the occurrences.
  const loaded = q.data !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const toggle = listRef.current?.closest('li.error-group')?.querySelector('.error-group-toggle');
    if (!toggle || document.activeElement !== toggle || !linkAt(0)) return;
    linkAt(0)?.focus({ preventScroll: true });
    setSelected(0);
  }, [loaded]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when they arrive
  if (q.isPending) return <Spinner label="Loading occurrences" />;
  if (q.isError) return <ErrorInline error={q.error} what="the occurrences" onRetry={() => void q.refetch()} />;
  return (
    <div className="occurrences">
      <ul aria-label={`Occurrences of ${visibleText(g.signature)}`} ref={listRef}>
        {q.data.events.map((e, i) => (
          <li key={e.id}>
            <Link to={sessionEventHref(e.sessionId, e.id)} className="occurrence" data-list-row="" aria-current={i === selected ? 'true' : undefined}>
              <RelativeTime ts={e.ts} className="muted" />
              <Duration ms={e.dur} className="muted" />
              <span className="occurrence-session">
                <SourceBadge source={e.source} /> {visibleText(e.sessionTitle ?? e.sessionId)}
              </span>
              <span className="occurrence-message mono">{visibleText(e.error ?? e.signature ?? '')}</span>
            </Link>
          </li>
        ))}
      </ul>
      {q.data.total > q.data.events.length && (
        <Link className="occurrences-more" to={triageHref({ ...state, ...f })}>
          All {plural(q.data.total, 'occurrence')} in the event list →
        </Link>
      )}
    </div>
  );
}

const groupKeyOf = (g: ErrorGroup) => `${g.type}\u0000${g.subject}\u0000${g.signature}`;

interface GroupRowProps {
  g: ErrorGroup;
  r: ErrorGroupsResponse;
  state: TriageState;
  index: number;
  open: boolean;
  setOpen: (open: boolean) => void;
  selected: boolean;
}

function GroupRow({ g, r, state, index, open, setOpen, selected }: GroupRowProps) {
  const id = useId();
  const list = triageHref({ ...state, ...occurrencesFilter(g) });
  return (
    <li className={`error-group${open ? ' is-open' : ''}${selected ? ' is-selected' : ''}`} data-index={index}>
      <div className="error-group-row">
        <button
          type="button"
          className="error-group-toggle"
          aria-expanded={open}
          aria-controls={id}
          aria-current={selected ? 'true' : undefined}
          data-list-row=""
          onClick={() => setOpen(!open)}
          title={open ? 'Hide occurrences' : 'Show occurrences'}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className="visually-hidden">{open ? 'Hide' : 'Show'} occurrences of</span>
        </button>
        <Link className="num error-group-count" to={list} title="Open these occurrences in the event list">
          {formatCount(g.count)}
        </Link>
        <span className="num muted" title="sessions affected">
          {formatCount(g.sessions)}
        </span>
        <span className={`badge badge-${g.kind === 'discovery' || g.kind === 'hook' ? 'warn' : 'danger'}`}>{KIND_LABEL[g.kind]}</span>
        <span className="error-group-subject mono" title={visibleText(g.subject)}>
          {g.subject ? visibleText(g.subject) : '(none)'}
        </span>
        {/* The latest error as written (names, paths and numbers that tell occurrences apart); the normalized
            signature that groups them is in the tooltip and the occurrences heading. */}
        <button
          type="button"
          className="error-group-signature mono"
          onClick={() => setOpen(!open)}
          title={visibleText(`${g.latest.message ?? g.signature}${g.latest.result ? `\nresult: ${g.latest.result}` : ''}\ngrouped as: ${g.signature}`)}
        >
          {visibleText(g.latest.message ?? g.signature)}
          {g.latest.result && <span className="error-group-result"> — result: {visibleText(g.latest.result)}</span>}
        </button>
        <span className="error-group-spark">
          <Sparkline values={g.sparkline} from={r.sparkFrom} bucketMs={r.bucketMs} label={`${formatCount(g.count)} over time`} />
        </span>
        <span className="muted nowrap" title={g.firstSeen === null ? undefined : `first seen ${formatDateTime(g.firstSeen)}`}>
          <RelativeTime ts={g.lastSeen} />
        </span>
      </div>
      {open && (
        <div id={id}>
          <Occurrences g={g} state={state} />
        </div>
      )}
    </li>
  );
}

/** Failures grouped by cause; fetches its pages and renders the groups. */
export function FailureGroups({ state, onChange }: { state: TriageState; onChange: (next: Partial<TriageState>) => void }) {
  const query = errorGroupsQueryOf(state);
  const q = useInfiniteQuery(errorGroupsOptions(query));
  const groups = useMemo(() => q.data?.pages.flatMap((p) => p.groups) ?? [], [q.data]);
  const first = q.data?.pages[0];
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set());
  const setGroupOpen = (key: string, open: boolean) =>
    setOpenGroups((prev) => {
      const next = new Set(prev);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  const listRef = useRef<HTMLUListElement>(null);
  const { selected } = useListKeys({
    title: 'Failure groups',
    noun: 'group',
    count: groups.length,
    onOpen: (i) => setGroupOpen(groupKeyOf(groups[i]), !openGroups.has(groupKeyOf(groups[i]))),
    opens: 'Show or hide its occurrences',
    resetKey: JSON.stringify(query),
    accepts: (t) => !t?.closest('.occurrences'),
    reveal: (i) => {
      const toggle = listRef.current?.querySelector<HTMLElement>(`li[data-index="${i}"] .error-group-toggle`);
      toggle?.focus({ preventScroll: true });
      toggle?.scrollIntoView({ block: 'nearest' });
    },
  });
  useFocusOnArrival(listRef, groups.length > 0);
  // the kind tabs count every kind under the other filters
  const byKind = first?.byKind ?? {};
  const all = Object.values(byKind).reduce((a, b) => a + b, 0);
  return (
    <div className="failures">
      <div className="triage-filters" role="group" aria-label="Failure filters">
        <div className="field">
          <span className="field-label">Kind</span>
          <div className="segmented" role="group" aria-label="Failure kind">
            <button type="button" className="segmented-btn" aria-pressed={state.kind === undefined} onClick={() => onChange({ kind: undefined })}>
              All {first ? formatCount(all) : ''}
            </button>
            {KINDS.map((k) => (
              <button key={k} type="button" className="segmented-btn" aria-pressed={state.kind === k} onClick={() => onChange({ kind: k })} disabled={first !== undefined && !byKind[k] && state.kind !== k}>
                {KIND_LABEL[k]} {first ? formatCount(byKind[k] ?? 0) : ''}
              </button>
            ))}
          </div>
        </div>
        <FailureSearch value={state.fq} onCommit={(fq) => onChange({ fq })} />
        <div className="field">
          <span className="field-label">Sort by</span>
          <div className="segmented" role="group" aria-label="Sort groups by">
            {(
              [
                ['count', 'Count'],
                ['sessions', 'Sessions'],
                ['last', 'Last seen'],
              ] as const
            ).map(([v, l]) => (
              <button key={v} type="button" className="segmented-btn" aria-pressed={state.fsort === v} onClick={() => onChange({ fsort: v })}>
                {l}
              </button>
            ))}
          </div>
        </div>
      </div>
      {q.isPending ? (
        <Spinner label="Loading failures" />
      ) : q.isError ? (
        <ErrorInline error={q.error} what="the failures" onRetry={() => void q.refetch()} />
      ) : groups.length === 0 ? (
        <EmptyState title="No failures match">Nothing failed in this window, or the filters exclude it.</EmptyState>
      ) : (
        <>
          <div className="error-group-row error-group-header" aria-hidden="true">
            <span />
            <span className="num">Count</span>
            <span className="num">Sessions</span>
            <span>Kind</span>
            <span>Subject</span>
            <span>Signature (numbers, paths, ids masked)</span>
            <span>Over time</span>
            <span>Last seen</span>
          </div>
          <ul className="error-groups" aria-label="Failure groups" ref={listRef} tabIndex={-1}>
            {groups.map((g, i) => {
              const key = groupKeyOf(g);
              return (
                <GroupRow key={key} g={g} r={first!} state={state} index={i} open={openGroups.has(key)} setOpen={(open) => setGroupOpen(key, open)} selected={i === selected} />
              );
            })}
          </ul>
          <footer className="list-footer">
            <span className="list-footer-count">
              Showing {formatCount(groups.length)} of {plural(first!.totalGroups, 'group')}, {plural(first!.totalFailures, 'failure')}
            </span>
            {q.hasNextPage && (
              <button type="button" className="btn" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            )}
          </footer>
        </>
      )}
    </div>
  );
}

function FailureSearch({ value, onCommit }: { value: string; onCommit: (v: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Signature or subject
      </label>
      <input
        id={id}
        className="input"
        style={{ width: 220 }}
        value={draft}
        placeholder="e.g. timed out"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => draft !== value && onCommit(draft.trim())}
        onKeyDown={(e) => e.key === 'Enter' && onCommit(draft.trim())}
      />
    </div>
  );
}
