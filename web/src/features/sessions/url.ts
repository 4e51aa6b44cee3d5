import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { SessionSort, SessionSource, TimeWindow } from '../../../../shared/api';

/**
 * The sessions page's view state, kept in the URL so that a filtered list can be shared or bookmarked.
 * `repo`: undefined = every repository; '' = sessions without one (the API's `repo=`); else the name.
 */
export interface SessionsFilters {
  repo: string | undefined;
  window: TimeWindow;
  /** the server sorts (the list is paged); default: last activity, newest first */
  sort: SessionSort;
  dir: 'asc' | 'desc';
  /** undefined = both VS Code and CLI sessions */
  source: SessionSource | undefined;
}

export const DEFAULT_WINDOW: TimeWindow = 'all';

export function parseSessionsSearch(params: URLSearchParams): SessionsFilters {
  const repo = params.get('repo');
  const window = TimeWindow.safeParse(params.get('window'));
  const sort = SessionSort.safeParse(params.get('sort'));
  const source = SessionSource.safeParse(params.get('source'));
  return {
    repo: repo ?? undefined,
    window: window.success ? window.data : DEFAULT_WINDOW,
    sort: sort.success ? sort.data : 'updated',
    dir: params.get('dir') === 'asc' ? 'asc' : 'desc',
    source: source.success ? source.data : undefined,
  };
}

/** Defaults are left out, so the plain list is just `/`; `repo=` (empty) is kept: it means "no repository". */
export function serializeSessionsSearch(f: SessionsFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.repo !== undefined) params.set('repo', f.repo);
  if (f.window !== DEFAULT_WINDOW) params.set('window', f.window);
  if (f.sort !== 'updated') params.set('sort', f.sort);
  if (f.dir !== 'desc') params.set('dir', f.dir);
  if (f.source !== undefined) params.set('source', f.source);
  return params;
}

export function useSessionsFilters(): [SessionsFilters, (next: Partial<SessionsFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseSessionsSearch(params), [params]);
  const update = useCallback(
    (next: Partial<SessionsFilters>) => setParams((prev) => serializeSessionsSearch({ ...parseSessionsSearch(prev), ...next })),
    [setParams],
  );
  return [filters, update];
}
