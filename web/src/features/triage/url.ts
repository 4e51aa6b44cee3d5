import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { FailureKind, SessionSource, StatsBy, TimeWindow, type EventListQuery, type ErrorGroupsQuery } from '../../../../shared/api';

export type TriageTab = 'slow' | 'failures' | 'latency';
export type SortBy = 'dur' | 'ts' | 'ttft';
export type CallTypeFilter = 'llm_request' | 'tool_call' | 'subagent' | 'hook';

/**
 * The triage page's shareable state, in the URL: the tab, the window, repository and source every tab shares, the
 * event filters of the list (which the charts and error groups also link to), the failures filters and the
 * latency grouping. Defaults are left out, so the plain page is just `/triage`.
 */
export interface TriageState {
  tab: TriageTab;
  window: TimeWindow;
  /** undefined: every repository; '': sessions without one */
  repo: string | undefined;
  /** undefined: both; the sessions list's `source` parameter */
  source: SessionSource | undefined;
  // the event list
  type: string | undefined;
  min: number;
  max: number | undefined;
  status: 'ok' | 'error' | undefined;
  model: string | undefined;
  tool: string | undefined;
  name: string | undefined;
  q: string;
  sort: SortBy;
  from: number | undefined;
  to: number | undefined;
  sig: string | undefined;
  // failures
  kind: FailureKind | undefined;
  fq: string;
  fsort: 'count' | 'last' | 'sessions';
  // latency
  by: StatsBy;
  key: string | undefined;
  /** with by=repository: which calls */
  ctype: CallTypeFilter;
}

export const DEFAULT_MIN = 5000;

export const DEFAULT_STATE: TriageState = {
  tab: 'slow',
  window: 'all',
  repo: undefined,
  source: undefined,
  type: undefined,
  min: DEFAULT_MIN,
  max: undefined,
  status: undefined,
  model: undefined,
  tool: undefined,
  name: undefined,
  q: '',
  sort: 'dur',
  from: undefined,
  to: undefined,
  sig: undefined,
  kind: undefined,
  fq: '',
  fsort: 'count',
  by: 'model',
  key: undefined,
  ctype: 'llm_request',
};

const int = (s: string | null, min: number): number | undefined => {
  if (s === null || !/^-?\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
};
const str = (s: string | null): string | undefined => (s === null ? undefined : s);
const nonEmpty = (s: string | null): string | undefined => (s === null || s === '' ? undefined : s);

export function parseTriageSearch(p: URLSearchParams): TriageState {
  const tab = p.get('tab');
  const status = p.get('status');
  const sort = p.get('sort');
  const fsort = p.get('fsort');
  const window = TimeWindow.safeParse(p.get('window'));
  const kind = FailureKind.safeParse(p.get('kind'));
  const by = StatsBy.safeParse(p.get('by'));
  const ctype = p.get('ctype');
  const source = SessionSource.safeParse(p.get('source'));
  return {
    tab: tab === 'failures' || tab === 'latency' ? tab : 'slow',
    window: window.success ? window.data : DEFAULT_STATE.window,
    repo: str(p.get('repo')),
    source: source.success ? source.data : undefined,
    type: nonEmpty(p.get('type')),
    min: int(p.get('min'), -1) ?? DEFAULT_MIN,
    max: int(p.get('max'), 0),
    status: status === 'ok' || status === 'error' ? status : undefined,
    // '' is meaningful for model and tool (the column is empty): kept
    model: str(p.get('model')),
    tool: str(p.get('tool')),
    name: nonEmpty(p.get('name')),
    q: p.get('q') ?? '',
    sort: sort === 'ts' || sort === 'ttft' ? sort : 'dur',
    from: int(p.get('from'), 0),
    to: int(p.get('to'), 0),
    sig: nonEmpty(p.get('sig')),
    kind: kind.success ? kind.data : undefined,
    fq: p.get('fq') ?? '',
    fsort: fsort === 'last' || fsort === 'sessions' ? fsort : 'count',
    by: by.success ? by.data : DEFAULT_STATE.by,
    key: str(p.get('key')),
    ctype: ctype === 'tool_call' || ctype === 'subagent' || ctype === 'hook' ? ctype : 'llm_request',
  };
}

export function serializeTriageSearch(s: TriageState): URLSearchParams {
  const p = new URLSearchParams();
  const put = (k: string, v: string | number | undefined, dflt?: string | number) => {
    if (v !== undefined && v !== dflt) p.set(k, String(v));
  };
  put('tab', s.tab, 'slow');
  put('window', s.window, 'all');
  put('repo', s.repo);
  put('source', s.source);
  put('type', s.type);
  put('min', s.min, DEFAULT_MIN);
  put('max', s.max);
  put('status', s.status);
  put('model', s.model);
  put('tool', s.tool);
  put('name', s.name);
  put('q', s.q, '');
  put('sort', s.sort, 'dur');
  put('from', s.from);
  put('to', s.to);
  put('sig', s.sig);
  put('kind', s.kind);
  put('fq', s.fq, '');
  put('fsort', s.fsort, 'count');
  put('by', s.by, 'model');
  put('key', s.key);
  put('ctype', s.ctype, 'llm_request');
  return p;
}

const EVENT_FILTERS = ['type', 'min', 'max', 'status', 'model', 'tool', 'name', 'q', 'from', 'to', 'sig'] as const satisfies readonly (keyof TriageState)[];

/** The event-list filters of the state at their defaults: what "clear filters" goes back to (tab, window, repo, source kept). */
export const CLEARED_EVENT_FILTERS: Partial<TriageState> = Object.fromEntries(EVENT_FILTERS.map((k) => [k, DEFAULT_STATE[k]]));

/** GET /api/events parameters of a state (the list's query). */
export function eventQueryOf(s: TriageState): EventListQuery {
  return {
    type: s.type,
    min: s.min,
    max: s.max,
    status: s.status,
    model: s.model,
    tool: s.tool,
    name: s.name,
    repo: s.repo,
    source: s.source,
    window: s.window,
    from: s.from,
    to: s.to,
    q: s.q === '' ? undefined : s.q,
    sig: s.sig,
    sort: s.sort,
  } as EventListQuery;
}

export function errorGroupsQueryOf(s: TriageState): ErrorGroupsQuery {
  return { kind: s.kind, repo: s.repo, source: s.source, window: s.window, q: s.fq === '' ? undefined : s.fq, sort: s.fsort };
}

/** The column filter that selects a group's calls in the event list: model for model calls, tool for tools, … */
export function groupFilter(by: StatsBy, key: string, callType: CallTypeFilter = 'llm_request'): Partial<TriageState> {
  switch (by) {
    case 'model':
      return { type: 'llm_request', model: key };
    case 'tool':
      return { type: 'tool_call', tool: key };
    case 'subagent':
      return { type: 'subagent', tool: key };
    case 'hook':
      return { type: 'hook', name: key };
    case 'repository':
      return { type: callType, repo: key };
  }
}

export function useTriageState(): [TriageState, (next: Partial<TriageState>) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseTriageSearch(params), [params]);
  const update = useCallback(
    (next: Partial<TriageState>) => setParams((prev) => serializeTriageSearch({ ...parseTriageSearch(prev), ...next })),
    [setParams],
  );
  return [state, update];
}

/** `/triage?…` for a state: links that carry the whole view (open in a new tab, paste). */
export function triageHref(s: TriageState): string {
  const qs = serializeTriageSearch(s).toString();
  return qs ? `/triage?${qs}` : '/triage';
}

/** The session view, at an event: what every row, point and occurrence links to. */
export function sessionEventHref(sessionId: string, eventId: number): string {
  return `/session/${encodeURIComponent(sessionId)}?event=${eventId}`;
}
