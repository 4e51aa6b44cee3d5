import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { CriticalStep, RequestTimeline, RequestBreakdownRow, SpanRow, TimeAxis } from '../../../../shared/api';
import { useShortcuts, type Binding } from '../../ui/keys/useShortcuts';
import { requestBreakdownsOptions, requestTimelineOptions } from './session.queries';
import { useStoredFlag } from '../../ui/useStoredFlag';
import { TIMELINE_KEYS, zoomAfter, type TimelineAction } from './timeline-keys';
import type { WheelZoomHandlers } from './useWheelZoom';
import { landingZoom, zoomBy, zoomToTimes, panBy, type Zoom } from './zoom';

export interface RequestTimelineInput {
  sessionId: string;
  /** the selected event, or null */
  selectedId: number | null;
  axis: TimeAxis | null;
  zoom: Zoom | null;
  /** the URL's event when the page opened or the URL's event changed from outside (a link): land zoomed on it */
  arrivedAt: number | null;
  /** a zoom, or a step from the zoom the changes before it asked for (the URL shows them a render later: url.ts) */
  setZoom: (zoom: [number, number] | null | ((zoom: Zoom | null) => [number, number] | null), opts?: { push?: boolean }) => void;
}

export interface RequestTimelineView {
  /** the selected event's request: breakdown and critical path (null until it arrives, or for another event) */
  timeline: RequestTimeline | null;
  showCritical: boolean;
  setShowCritical: (on: boolean) => void;
  /** the highlighted critical path by event id, when shown */
  critical: ReadonlyMap<number, CriticalStep> | null;
  /** the same path in time order (the request first), when shown: what n / N step along */
  criticalPath: readonly CriticalStep[] | null;
  zoomToRow: (row: SpanRow) => void;
  wheel: WheelZoomHandlers;
  /** every request's totals by its user_message id, for the request rows */
  totals: ReadonlyMap<number, RequestBreakdownRow> | null;
}

// Where the tree's keys are not the page's either (useTreeKeys): the minimap has its own +, −, 0 and arrows.
const KEYS_IGNORED_IN = '.event-pane, .minimap, .session-side, dialog, [role="separator"]';

const extentOf = (row: SpanRow) => (row.start === null ? null : { start: row.start, end: Math.max(row.start + row.duration, row.subtreeEnd ?? row.start) });

/**
 * The request-level timeline of the session view: the selected event's request (from the server), zooming to it
 * or to a span (keys, double-click on a bar, landing from a link), the wheel, and the critical path toggle.
 */
export function useRequestTimeline(p: RequestTimelineInput): RequestTimelineView {
  const q = useQuery({ ...requestTimelineOptions(p.sessionId, p.selectedId ?? 0), enabled: p.selectedId !== null });
  const timeline = q.data && q.data.eventId === p.selectedId ? q.data : null;
  const [showCritical, setShowCritical] = useStoredFlag('chronoscope.session.criticalPath');
  const totalsQuery = useQuery(requestBreakdownsOptions(p.sessionId));
  const totals = useMemo(() => (totalsQuery.data ? new Map(totalsQuery.data.requests.map((r) => [r.id, r])) : null), [totalsQuery.data]);

  // A link to an event (Triage, Search, a pasted URL) without a zoom lands zoomed on its request, once.
  const landed = useRef<number | null>(null);
  const { axis, arrivedAt, setZoom } = p;
  useEffect(() => {
    if (!axis || !timeline || arrivedAt === null || timeline.eventId !== arrivedAt || landed.current === arrivedAt) return;
    landed.current = arrivedAt;
    if (p.zoom !== null) return;
    const req = timeline.request?.breakdown;
    const z = req ? landingZoom(axis, req, timeline.extent) : timeline.extent ? zoomToTimes(axis, timeline.extent.start, timeline.extent.end) : null;
    if (z) setZoom(z);
  }, [axis, timeline, arrivedAt]); // eslint-disable-line react-hooks/exhaustive-deps

  const zoomToRow = useCallback(
    (row: SpanRow) => {
      const e = extentOf(row);
      if (axis && e) setZoom(zoomToTimes(axis, e.start, e.end), { push: true });
    },
    [axis, setZoom],
  );

  const run = (action: TimelineAction): boolean => {
    if (!axis) return false;
    if (action.type === 'critical-path') {
      setShowCritical(!showCritical);
      return true;
    }
    if (action.type === 'zoom-request' || action.type === 'zoom-span') {
      const e = action.type === 'zoom-request' ? timeline?.request?.breakdown : timeline?.extent;
      if (!e) return false;
      setZoom(zoomToTimes(axis, e.start, e.end), { push: true });
      return true;
    }
    // zoom, pan or reset (the other actions returned above), from the zoom the keys before it asked for, which a key
    // pressed before their render would not see in p.zoom
    setZoom((zoom) => zoomAfter(action, zoom) ?? null, { push: action.type === 'reset' });
    return true;
  };
  const bindings: Binding[] = TIMELINE_KEYS.map(({ keys, does, action }) => ({
    keys,
    does,
    run: (e) => {
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest(KEYS_IGNORED_IN)) return false;
      return run(action);
    },
  }));
  useShortcuts('Timeline', bindings);

  const wheel = useMemo<WheelZoomHandlers>(
    () => ({ zoom: (factor, anchor) => setZoom((zoom) => zoomBy(zoom, factor, anchor)), pan: (share) => setZoom((zoom) => panBy(zoom, share)) }),
    [setZoom],
  );
  // While a span of the path just selected loads its own timeline, the previous one's path is its request's too:
  // kept, so the highlight does not blink off and n / N can step on at once.
  const shownPath = timeline?.request?.criticalPath ?? (q.data?.request?.criticalPath.some((s) => s.id === p.selectedId) ? q.data.request.criticalPath : undefined);
  const path = showCritical ? shownPath : undefined;
  const critical = useMemo(() => (path ? new Map(path.map((s) => [s.id, s])) : null), [path]);
  return { timeline, showCritical, setShowCritical, critical, criticalPath: path ?? null, zoomToRow, wheel, totals };
}
