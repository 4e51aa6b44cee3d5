import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useParams } from 'react-router';
import type { SpanRow } from '../../../../shared/api';
import { useLiveInvalidation } from '../../api/useLiveInvalidation';
import { EmptyState } from '../../ui/EmptyState';
import { ErrorInline } from '../../ui/ErrorInline';
import { plural } from '../../ui/format';
import { Spinner } from '../../ui/Spinner';
import { Splitter } from '../../ui/Splitter';
import { queryTerms } from '../../ui/highlight';
import { HighlightTermsProvider } from '../../ui/HighlightTerms';
import { usePaneWidth } from '../../ui/usePaneWidth';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useShortcuts } from '../../ui/keys/useShortcuts';
import { liveStep, seenNewest, type LiveState } from '../../ui/live-growth';
import { stepAlongPath } from './critical-steps';
import { useStoredFlag } from '../../ui/useStoredFlag';
import { Breakdown } from './Breakdown';
import { ConnectedEventDetail } from './EventDetailPane';
import { toggleFold, withOpened } from './keyboard';
import { Minimap } from './Minimap';
import { ConnectedRequestsView } from './RequestsView';
import { DETAIL_MAX_CHARS, eventDetailOptions, seekSpan, sessionDetailOptions, sessionViewKeys, spanLocateOptions, spanOverviewOptions, type SpanViewParams } from './session.queries';
import { searchQueryOf } from './SearchBreadcrumb';
import { SessionHeader } from './SessionHeader';
import { SpanFilters } from './SpanFilters';
import { SpanTable } from './SpanTable';
import { SideLineage } from './SideLineage';
import { pagesFor, useSpanWindow, type PageSpan } from './useSpanWindow';
import { useRequestTimeline, type RequestTimelineInput } from './useRequestTimeline';
import { useTreeKeys } from './useTreeKeys';
import { filterParams, hasFilters, useSessionViewState } from './url';
import './session.css';

/** /session/:id — one session's span tree and waterfall; `?event=<events.id>` selects and reveals an event. */
export function SessionPage() {
  const { id = '' } = useParams();
  // Folds, selection and scroll belong to one session: a new id starts afresh.
  return <SessionView key={id} id={id} />;
}

interface Selection {
  id: number;
  /** row index in the current view; null until located */
  index: number | null;
}

function SessionView({ id }: { id: string }) {
  const [view, setView] = useSessionViewState();
  const detail = useQuery(sessionDetailOptions(id));
  const overview = useQuery(spanOverviewOptions(id));
  useDocumentTitle(detail.data?.title ?? `Session ${id.slice(0, 8)}`);

  // Live: the session or one of its child logs gained lines.
  const scope = useMemo(
    () => new Set([id, ...(detail.data?.children.map((c) => c.id) ?? []), ...(overview.data?.sessionIds ?? [])]),
    [id, detail.data, overview.data],
  );
  useLiveInvalidation(sessionViewKeys.session(id), { when: (m) => m.sessionIds.some((s) => scope.has(s)), throttleMs: 1000 });

  // Folds: `toggled` flips the default (child sessions folded); while filtering, everything matching shows
  // and `filterFolds` holds the folds made then.
  const filtering = hasFilters(view);
  const [fold, setFold] = useState<'default' | 'none' | 'all'>('default');
  const [toggled, setToggled] = useState<number[]>([]);
  const [filterFolds, setFilterFolds] = useState<number[]>([]);
  const activeFolds = filtering ? filterFolds : toggled;
  const setActiveFolds = filtering ? setFilterFolds : setToggled;
  const filters = filterParams(view);
  const filterKey = JSON.stringify(filters);
  const spanView: SpanViewParams = useMemo(
    () => ({ ...filters, fold: filtering ? 'none' : fold, toggled: activeFolds.length > 0 ? activeFolds.join(',') : undefined }),
    [filterKey, filtering, fold, activeFolds], // eslint-disable-line react-hooks/exhaustive-deps
  );

  // Rows on screen change every frame while scrolling; the page re-renders only when the windows to fetch do.
  const range = useRef({ start: 0, end: 60 });
  const [pageSpan, setPageSpan] = useState<PageSpan>(() => pagesFor(0, 60));
  const win = useSpanWindow(id, spanView, pageSpan);
  const onRangeChange = useCallback((start: number, end: number) => {
    range.current = { start, end };
    setLive((l) => seenNewest(l, end >= l.total - 1));
    const next = pagesFor(start, end);
    setPageSpan((p) => (p.first === next.first && p.last === next.last ? p : next));
  }, []);

  // Live growth: "N new events ↓" while reading elsewhere, or the newest row kept in view (Follow live).
  const [follow, setFollow] = useStoredFlag('chronoscope.session.followLive');
  const viewKey = JSON.stringify(spanView);
  const [live, setLive] = useState<LiveState>({ total: 0, viewKey, unseen: 0 });

  const [selected, setSelected] = useState<Selection | null>(view.event !== null ? { id: view.event, index: null } : null);
  // The event a link brought the page to (on opening, or the URL's event changed from outside): it lands zoomed.
  const [arrivedAt, setArrivedAt] = useState<number | null>(view.event);
  const [paneOpen, setPaneOpen] = useState(view.event !== null);
  // With no event open, the side shows where the session came from and what branched off it.
  const [lineageHidden, setLineageHidden] = useStoredFlag('chronoscope.session.hideLineage');
  const showLineage = !lineageHidden && !!detail.data && (detail.data.children.length > 0 || detail.data.parentId !== null);
  const [scrollTo, setScrollTo] = useState<{ index: number; nonce: number; align?: 'center' | 'auto' } | null>(null);
  const scrollNonce = useRef(0);
  const scrollToIndex = useCallback((index: number, align: 'center' | 'auto' = 'auto') => setScrollTo({ index, nonce: ++scrollNonce.current, align }), []);

  // Locating an event: a deep link, a link followed inside the page, or the selection after the filters changed.
  const [locate, setLocate] = useState<{ event: number; nonce: number } | null>(view.event !== null ? { event: view.event, nonce: 0 } : null);
  const located = useQuery({ ...spanLocateOptions(id, spanView, locate?.event ?? 0, locate?.nonce ?? 0), enabled: locate !== null });
  const [lastLocated, setLastLocated] = useState<{ event: number; found: boolean } | null>(null);
  useEffect(() => {
    if (!locate || !located.data) return;
    const r = located.data;
    setLocate(null);
    setLastLocated({ event: locate.event, found: r.revealIndex !== null });
    if (r.revealOpened.length > 0) setActiveFolds((t) => withOpened(t, r.revealOpened));
    setSelected({ id: locate.event, index: r.revealIndex });
    if (r.revealIndex !== null) scrollToIndex(r.revealIndex, 'center');
  }, [located.data]); // eslint-disable-line react-hooks/exhaustive-deps

  const missingEvent = useQuery({
    ...eventDetailOptions(selected?.id ?? 0, DETAIL_MAX_CHARS),
    enabled: selected !== null && lastLocated?.event === selected.id && !lastLocated.found,
  });

  // The URL's event changed from outside (a link in the header, back/forward): select and reveal it.
  useEffect(() => {
    if (view.event !== null && view.event !== selected?.id) {
      setSelected({ id: view.event, index: null });
      setArrivedAt(view.event);
      setPaneOpen(true);
      setLocate({ event: view.event, nonce: Date.now() });
    }
  }, [view.event]); // eslint-disable-line react-hooks/exhaustive-deps

  // Filters changed: keep the selected event in view if it still is.
  const firstFilters = useRef(filterKey);
  useEffect(() => {
    if (firstFilters.current === filterKey) return;
    firstFilters.current = filterKey;
    if (selected) setLocate({ event: selected.id, nonce: Date.now() });
  }, [filterKey]); // eslint-disable-line react-hooks/exhaustive-deps

  // The selection's index can move when rows arrive (live growth above it, folds): follow the id.
  const selIndex = selected?.index ?? null;
  useEffect(() => {
    if (!selected) return;
    const row = selIndex !== null ? win.getRow(selIndex) : undefined;
    if (row && row.id === selected.id) return;
    const found = win.findLoaded(selected.id);
    if (found !== null && found !== selIndex) setSelected({ id: selected.id, index: found });
  }, [win.stamp]); // eslint-disable-line react-hooks/exhaustive-deps

  const select = useCallback(
    (row: SpanRow, index: number, open?: boolean) => {
      setSelected({ id: row.id, index });
      if (open) setPaneOpen(true);
      setView({ event: row.id });
    },
    [setView],
  );
  const onSelect = useCallback((row: SpanRow, index: number) => select(row, index, true), [select]);
  const onOpen = useCallback((row: SpanRow, index: number) => select(row, index, true), [select]);
  const onToggle = useCallback((row: SpanRow) => setActiveFolds((t) => toggleFold(t, row.id)), [setActiveFolds]);
  const expandAll = useCallback(() => {
    if (filtering) setFilterFolds([]);
    else {
      setFold('none');
      setToggled([]);
    }
    if (view.requests) setView({ requests: false });
  }, [filtering, view.requests, setView]);
  // One row per request; a row opened after that is a flip in `toggled`, as in the other modes.
  const collapseAll = useCallback(() => {
    if (filtering) setFilterFolds([]);
    setFold('all');
    setToggled([]);
    if (view.requests) setView({ requests: false });
  }, [filtering, view.requests, setView]);

  // The requests-only view replaces the tree; a request opened from it is selected and revealed in the tree.
  const toggleRequests = useCallback(() => setView({ requests: !view.requests }), [view.requests, setView]);
  const openRequest = useCallback(
    (eventId: number) => {
      setView({ requests: false, event: eventId });
      setSelected({ id: eventId, index: null });
      setPaneOpen(true);
      setLocate({ event: eventId, nonce: Date.now() });
    },
    [setView],
  );
  useShortcuts('Session view', [{ keys: ['r'], does: view.requests ? 'Back to the full tree' : 'Requests only: one row per request with its totals', run: toggleRequests }]);

  const [seekError, setSeekError] = useState<string | null>(null);
  const seek = useCallback(
    async (dir: 'next' | 'prev', what: 'error' | 'match') => {
      try {
        const from = selected?.index ?? (dir === 'next' ? -1 : win.total);
        const r = await seekSpan(id, spanView, from, dir, what);
        if (r.index === null || r.id === null) {
          setSeekError(`No ${dir === 'next' ? 'later' : 'earlier'} ${what === 'error' ? 'error' : 'match'}`);
          setTimeout(() => setSeekError(null), 2000);
          return;
        }
        if (r.opened.length > 0) setActiveFolds((t) => withOpened(t, r.opened));
        setSelected({ id: r.id, index: r.index });
        setView({ event: r.id });
        scrollToIndex(r.index, 'center');
      } catch (err) {
        setSeekError(err instanceof Error ? err.message : String(err));
      }
    },
    [id, spanView, selected, win.total, setView, scrollToIndex, setActiveFolds],
  );

  useEffect(() => {
    // a fold or a filter shows the previous view's rows until its own arrive: their count is not this view's
    if (!win.current) return;
    if (win.total === live.total && viewKey === live.viewKey) return;
    // the first rows of a view are not news
    const step = live.total === 0 ? { state: { total: win.total, viewKey, unseen: 0 }, showNewest: false } : liveStep(live, win.total, viewKey, range.current.end >= win.total - 1, follow);
    setLive(step.state);
    if (step.showNewest) scrollToIndex(win.total - 1);
  }, [win.total, viewKey, win.current]); // eslint-disable-line react-hooks/exhaustive-deps
  const showNewest = () => {
    scrollToIndex(win.total - 1);
    setLive((l) => ({ ...l, unseen: 0 }));
  };

  const filterInput = useRef<HTMLInputElement>(null);
  useTreeKeys({
    total: win.total,
    getRow: win.getRow,
    selectedIndex: selected?.index ?? null,
    hasSelection: selected !== null,
    onScreen: range.current,
    select: (row, index) => {
      select(row, index);
      scrollToIndex(index);
    },
    toggle: onToggle,
    setPaneOpen,
    seekError: (dir) => void seek(dir, 'error'),
    expandAll,
    collapseAll,
    focusFilter: () => filterInput.current?.focus(),
  }, !view.requests);

  // The detail pane (or the lineage) is a side panel at every width, resized by its splitter.
  const bodyRef = useRef<HTMLDivElement>(null);
  const pane = usePaneWidth(bodyRef, { storageKey: 'chronoscope.session.paneWidth', share: 0.36, paneMin: 320, mainMin: 440 });

  // Opened from a search: its terms are marked in the details.
  const searchTerms = useMemo(() => (view.from ? queryTerms(searchQueryOf(view.from)) : []), [view.from]);

  const zoom = useMemo<[number, number]>(() => view.zoom ?? [0, 1], [view.zoom]);
  const onZoom = useCallback((z: [number, number] | null) => setView({ zoom: z }), [setView]);
  const axis = overview.data?.axis ?? null;
  // A zoom the user asked for by name (a key, a double-click) is a step Back undoes; the wheel's many are not.
  const setZoom = useCallback<RequestTimelineInput['setZoom']>((z, opts) => setView((v) => ({ zoom: typeof z === 'function' ? z(v.zoom) : z }), { replace: !opts?.push }), [setView]);
  const tl = useRequestTimeline({ sessionId: id, selectedId: selected?.id ?? null, axis, zoom: view.zoom, arrivedAt, setZoom });
  // n / N: along the critical path `p` shows, span by span, each selected and revealed (unfolded) as a link would.
  const stepCritical = (dir: 1 | -1): boolean => {
    const next = tl.criticalPath ? stepAlongPath(tl.criticalPath, selected?.id ?? null, dir) : null;
    if (next === null) return false;
    setSelected({ id: next, index: null });
    setView({ event: next });
    setLocate({ event: next, nonce: Date.now() });
    return true;
  };
  useShortcuts('Timeline', [
    { keys: ['n'], does: 'Next span on the critical path (p shows it)', run: () => stepCritical(1) },
    { keys: ['N'], does: 'Previous span on the critical path', run: () => stepCritical(-1) },
  ]);

  if (detail.isError) {
    return (
      <section className="page">
        <ErrorInline error={detail.error} what="the session" onRetry={() => void detail.refetch()} />
      </section>
    );
  }

  // A deep-linked event that is not in this view: hidden by filters, or in another session altogether.
  const missing = selected !== null && locate === null && lastLocated?.event === selected.id && !lastLocated.found;
  const missingDetail = missingEvent.data;

  return (
    <section className={`session-page${(paneOpen && selected) || showLineage ? ' has-pane' : ''}`}>
      {detail.data ? (
        <SessionHeader
          detail={detail.data}
          overview={overview.data}
          // a link in the header lands zoomed on its call like any link to an event
          onSelectEvent={(eventId) => setView({ event: eventId, zoom: null })}
          onShowErrors={() => setView({ status: 'error' })}
          from={view.from}
        />
      ) : (
        <header className="session-header">
          <Spinner label="Loading the session" />
        </header>
      )}
      <SpanFilters
        view={view}
        overview={overview.data}
        // A filter is the tree's: changing one shows the tree.
        onChange={(next) => setView(view.requests ? { ...next, requests: false } : next)}
        matched={win.matched}
        total={win.total}
        inputRef={filterInput}
        onSeekMatch={(dir) => void seek(dir, 'match')}
        onExpandAll={expandAll}
        onCollapseAll={filtering ? null : collapseAll}
        requestsOnly={view.requests}
        onToggleRequests={toggleRequests}
      />
      {(missing || seekError) && (
        <div className="session-notice" role="status">
          {seekError ??
            (missingDetail && missingDetail.sessionId !== id && !scope.has(missingDetail.sessionId) ? (
              <>
                Event {selected!.id} belongs to another session. <a href={`/session/${encodeURIComponent(missingDetail.sessionId)}?event=${selected!.id}`}>Open it there</a>
              </>
            ) : filtering ? (
              <>
                Event {selected!.id} is hidden by the filters.{' '}
                <button type="button" className="link-btn" onClick={() => setView({ types: [], status: null, minDur: null, model: null, tool: null, q: '' })}>
                  Clear filters
                </button>
              </>
            ) : (
              <>Event {selected!.id} is not in this session.</>
            ))}
        </div>
      )}
      <div className="session-body" ref={bodyRef} style={{ '--pane-w': `${pane.width}px` } as CSSProperties}>
        <div className="span-view">
          {axis && overview.data && (
            <div className="span-minimap-row">
              <div className="span-minimap-label muted">
                {/* here rather than among the filters: a linked call lands zoomed, and at 1024 px the filters have no room */}
                {view.zoom ? (
                  <button type="button" className="btn btn-small" onClick={() => setZoom(null, { push: true })} title="Show the whole session (0)">
                    Reset zoom
                  </button>
                ) : (
                  <span className="span-minimap-hint" title="Zoom: drag on the timeline, double-click a bar, z (its request) or Z (the span), + and −, Ctrl/⌘ + wheel; 0 shows it all">
                    Drag or z to zoom
                  </span>
                )}
                <span className="timeline-tools">
                  <label className="follow-live" title="The chain of spans that decided when the selected request ended (p)">
                    <input type="checkbox" checked={tl.showCritical} onChange={(e) => tl.setShowCritical(e.target.checked)} /> Critical path
                  </label>
                  <label className="follow-live" title="Keep the newest row in view while the session grows">
                    <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow live
                  </label>
                </span>
              </div>
              <Minimap axis={axis} histogram={overview.data.histogram} zoom={zoom} onZoom={onZoom} />
            </div>
          )}
          {view.requests ? (
            <ConnectedRequestsView sessionId={id} onOpen={openRequest} />
          ) : win.error ? (
            <ErrorInline error={win.error} what="the spans" />
          ) : null}
          {view.requests ? null : !win.error && win.isPending && win.total === 0 ? (
            <div className="span-loading">
              <Spinner label="Loading spans" />
            </div>
          ) : !win.error && win.total === 0 ? (
            <EmptyState title={filtering ? 'Nothing matches these filters' : 'No events in this session yet'} />
          ) : (
            <SpanTable
              total={win.total}
              getRow={win.getRow}
              axis={axis}
              zoom={zoom}
              selectedId={selected?.id ?? null}
              onSelect={onSelect}
              onOpen={onOpen}
              onToggle={onToggle}
              onRangeChange={onRangeChange}
              scrollTo={scrollTo}
              dataStamp={win.stamp}
              headerNote={<span className="muted span-head-count">{win.total.toLocaleString('en-US')} rows</span>}
              critical={tl.critical}
              requestBreakdowns={tl.totals}
              onZoomToRow={tl.zoomToRow}
              wheel={tl.wheel}
            />
          )}
          {live.unseen > 0 && (
            <button type="button" className="new-events-pill" onClick={showNewest}>
              {plural(live.unseen, 'new event')} ↓
            </button>
          )}
        </div>
        {((paneOpen && selected) || showLineage) && <Splitter width={pane.width} limits={pane.limits} onChange={pane.setWidth} label="Resize the side panel" />}
        {paneOpen && selected ? (
          <HighlightTermsProvider value={searchTerms}>
            <ConnectedEventDetail
              key={selected.id}
              eventId={selected.id}
              pageSessionId={id}
              sessionStart={axis?.start ?? detail.data?.firstTs ?? null}
              inferredParent={(selected.index !== null && win.getRow(selected.index)?.id === selected.id && win.getRow(selected.index)?.inferredParent) || false}
              onClose={() => setPaneOpen(false)}
              breakdown={tl.timeline && <Breakdown timeline={tl.timeline} eventId={selected.id} />}
            />
          </HighlightTermsProvider>
        ) : (
          showLineage && (
            <aside className="session-side" aria-label="Related sessions">
              <div className="session-side-bar">
                <span className="muted">Select a span to see its details here.</span>
                <button type="button" className="btn btn-small" onClick={() => setLineageHidden(true)} title="Hide the lineage (remembered)">
                  Hide
                </button>
              </div>
              <SideLineage sessionId={id} childCount={detail.data?.childCount ?? 0} />
            </aside>
          )
        )}
      </div>
    </section>
  );
}

