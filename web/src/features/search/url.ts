import { useUrlState, type SetUrlState, type UrlStateCodec } from '../../app/url-state';
import { TimeWindow } from '../../../../shared/api';

/** The search page's shareable state: the query text (filters included), the window and the order. */
export interface SearchViewState {
  q: string;
  window: TimeWindow;
  sort: 'relevance' | 'recent';
}

export const DEFAULT_SEARCH: SearchViewState = { q: '', window: 'all', sort: 'relevance' };

// A membership test, not a zod parse: parsing makes zod 4 probe `new Function`, which the CSP's Trusted Types refuse.
const WINDOWS: readonly string[] = TimeWindow.options;

export function parseSearchParams(params: URLSearchParams): SearchViewState {
  const window = params.get('window') ?? '';
  return {
    q: params.get('q') ?? '',
    window: WINDOWS.includes(window) ? (window as TimeWindow) : DEFAULT_SEARCH.window,
    sort: params.get('sort') === 'recent' ? 'recent' : 'relevance',
  };
}

/** Defaults are left out: `/search?q=retry` is the plain search. */
export function serializeSearchParams(s: SearchViewState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q !== '') p.set('q', s.q);
  if (s.window !== DEFAULT_SEARCH.window) p.set('window', s.window);
  if (s.sort !== DEFAULT_SEARCH.sort) p.set('sort', s.sort);
  return p;
}

/**
 * Where a hit opens: the session, at the matching event (the session page selects `event`). `from` is the search
 * (its URL parameters): the session page highlights its terms and links back to it.
 */
export function hitPath(sessionId: string, eventId: number | null, from?: SearchViewState): string {
  const p = new URLSearchParams();
  if (eventId !== null) p.set('event', String(eventId));
  const search = from ? serializeSearchParams(from).toString() : '';
  if (search !== '' && from?.q.trim()) p.set('from', search);
  const qs = p.toString();
  return `/session/${encodeURIComponent(sessionId)}${qs ? `?${qs}` : ''}`;
}

/**
 * The URL holds the state; typing replaces the history entry (one entry per search, not per keystroke),
 * changing the window or order pushes one.
 */
const SEARCH_VIEW_CODEC: UrlStateCodec<SearchViewState> = { parse: parseSearchParams, serialize: serializeSearchParams };

export function useSearchViewState(): [SearchViewState, SetUrlState<SearchViewState>] {
  return useUrlState(SEARCH_VIEW_CODEC, false);
}
