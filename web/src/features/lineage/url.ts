import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { LINEAGE_MAX_DEPTH, LINEAGE_MAX_LIMIT, TimeWindow } from '../../../../shared/api';

/** `/lineage`: which trees are listed. repo: undefined = all, '' = sessions without a repository. */
export interface ForestFilters {
  repo: string | undefined;
  window: TimeWindow;
  /** only trees with more than one session */
  branching: boolean;
}

/** `/lineage/:id`: how much of a large tree to draw; unset = the server's defaults. */
export interface TraceBounds {
  depth?: number;
  limit?: number;
}

export const DEFAULT_FOREST_WINDOW: TimeWindow = 'all';

export const lineagePath = (id: string) => `/lineage/${encodeURIComponent(id)}`;
export const sessionPath = (id: string) => `/session/${encodeURIComponent(id)}`;

export function parseForestSearch(params: URLSearchParams): ForestFilters {
  const window = TimeWindow.safeParse(params.get('window'));
  return { repo: params.get('repo') ?? undefined, window: window.success ? window.data : DEFAULT_FOREST_WINDOW, branching: params.get('branching') === '1' };
}

export function serializeForestSearch(f: ForestFilters): URLSearchParams {
  const p = new URLSearchParams();
  if (f.repo !== undefined) p.set('repo', f.repo);
  if (f.window !== DEFAULT_FOREST_WINDOW) p.set('window', f.window);
  if (f.branching) p.set('branching', '1');
  return p;
}

function bounded(v: string | null, max: number, min: number): number | undefined {
  if (v === null || !/^\d+$/.test(v)) return undefined;
  return Math.min(max, Math.max(min, Number(v)));
}

export function parseTraceSearch(params: URLSearchParams): TraceBounds {
  return { depth: bounded(params.get('depth'), LINEAGE_MAX_DEPTH, 0), limit: bounded(params.get('limit'), LINEAGE_MAX_LIMIT, 1) };
}

export function useForestFilters(): [ForestFilters, (next: Partial<ForestFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseForestSearch(params), [params]);
  const update = useCallback(
    (next: Partial<ForestFilters>) => setParams((prev) => serializeForestSearch({ ...parseForestSearch(prev), ...next })),
    [setParams],
  );
  return [filters, update];
}

export function useTraceBounds(): [TraceBounds, (next: TraceBounds) => void] {
  const [params, setParams] = useSearchParams();
  const bounds = useMemo(() => parseTraceSearch(params), [params]);
  const update = useCallback(
    (next: TraceBounds) =>
      setParams(() => {
        const p = new URLSearchParams();
        if (next.depth !== undefined) p.set('depth', String(next.depth));
        if (next.limit !== undefined) p.set('limit', String(next.limit));
        return p;
      }),
    [setParams],
  );
  return [bounds, update];
}
