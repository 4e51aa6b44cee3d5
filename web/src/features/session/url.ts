import { useUrlState, type SetUrlState, type UrlStateCodec } from '../../app/url-state';

/**
 * The session page's shareable state, kept in the URL: the selected event (`event`, an events.id, which is
 * what search and triage link to), the filters, and the waterfall zoom. Folds are local: they are many ids.
 */
export interface SessionViewState {
  event: number | null;
  types: string[];
  status: 'ok' | 'error' | null;
  minDur: number | null;
  model: string | null;
  tool: string | null;
  q: string;
  /** the waterfall's visible range, 0..1 positions on the session's axis; null = all of it */
  zoom: [number, number] | null;
  /** the requests-only view (one row per user request with its totals) instead of the tree */
  requests: boolean;
  /** the search that led here (`from=<query>`), for the breadcrumb back and the highlight in the details */
  from: string | null;
}

export const EMPTY_VIEW: SessionViewState = { event: null, types: [], status: null, minDur: null, model: null, tool: null, q: '', zoom: null, requests: false, from: null };

const positiveInt = (s: string | null): number | null => {
  if (s === null || !/^\d+$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

function parseZoom(s: string | null): [number, number] | null {
  if (!s) return null;
  const m = /^(\d*\.?\d+)-(\d*\.?\d+)$/.exec(s);
  if (!m) return null;
  const a = Math.max(0, Math.min(1, Number(m[1])));
  const b = Math.max(0, Math.min(1, Number(m[2])));
  if (!(b - a > 1e-6)) return null;
  return a === 0 && b === 1 ? null : [a, b];
}

export function parseSessionSearch(params: URLSearchParams): SessionViewState {
  const status = params.get('status');
  const minDur = positiveInt(params.get('minDur'));
  return {
    event: positiveInt(params.get('event')),
    types: (params.get('type') ?? '').split(',').map((t) => t.trim()).filter((t) => /^[\w:.-]{1,60}$/.test(t)),
    status: status === 'ok' || status === 'error' ? status : null,
    minDur,
    model: params.get('model') || null,
    tool: params.get('tool') || null,
    q: params.get('q') ?? '',
    zoom: parseZoom(params.get('zoom')),
    requests: params.get('view') === 'requests',
    from: params.get('from') || null,
  };
}

// 7 decimals: MIN_WIDTH (zoom.ts) is 1e-5 and must survive a reload
const round = (x: number) => x.toFixed(7).replace(/\.?0+$/, '');

/** Defaults are left out, so a plain session is just `/session/<id>`. */
export function serializeSessionSearch(s: SessionViewState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.event !== null) p.set('event', String(s.event));
  if (s.types.length > 0) p.set('type', s.types.join(','));
  if (s.status) p.set('status', s.status);
  if (s.minDur) p.set('minDur', String(s.minDur));
  if (s.model) p.set('model', s.model);
  if (s.tool) p.set('tool', s.tool);
  if (s.q) p.set('q', s.q);
  if (s.zoom) p.set('zoom', `${round(s.zoom[0])}-${round(s.zoom[1])}`);
  if (s.requests) p.set('view', 'requests');
  if (s.from) p.set('from', s.from);
  return p;
}

/** The filters as the spans API takes them (only the filter part: no selection, no zoom). */
export function filterParams(s: SessionViewState): Record<string, string | number | undefined> {
  return {
    type: s.types.length > 0 ? s.types.join(',') : undefined,
    status: s.status ?? undefined,
    minDur: s.minDur ?? undefined,
    model: s.model ?? undefined,
    tool: s.tool ?? undefined,
    q: s.q.trim() === '' ? undefined : s.q.trim(),
  };
}

export function hasFilters(s: SessionViewState): boolean {
  return Object.values(filterParams(s)).some((v) => v !== undefined);
}

const SESSION_VIEW_CODEC: UrlStateCodec<SessionViewState> = { parse: parseSessionSearch, serialize: serializeSessionSearch };

/** The session page's state and its setter; a change replaces the history entry unless it asks to push one. */
export function useSessionViewState(): [SessionViewState, SetUrlState<SessionViewState>] {
  return useUrlState(SESSION_VIEW_CODEC, true);
}
