import { useUrlState, type SetUrlState, type UrlStateCodec } from '../../app/url-state';
import { TimeWindow, UsageBy } from '../../../../shared/api';

/** The usage page's view state, in the URL: window, repository, grouping and the chart's metric. */
export interface UsageState {
  window: TimeWindow;
  /** undefined: every repository; '': sessions without one */
  repo: string | undefined;
  by: UsageBy;
  metric: 'credits' | 'tokens';
}

export const DEFAULT_USAGE: UsageState = { window: '7d', repo: undefined, by: 'model', metric: 'credits' };

export function parseUsageSearch(p: URLSearchParams): UsageState {
  const window = TimeWindow.safeParse(p.get('window'));
  const by = UsageBy.safeParse(p.get('by'));
  return {
    window: window.success ? window.data : DEFAULT_USAGE.window,
    repo: p.get('repo') ?? undefined,
    by: by.success ? by.data : DEFAULT_USAGE.by,
    metric: p.get('metric') === 'tokens' ? 'tokens' : 'credits',
  };
}

export function serializeUsageSearch(s: UsageState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.window !== DEFAULT_USAGE.window) p.set('window', s.window);
  if (s.repo !== undefined) p.set('repo', s.repo);
  if (s.by !== DEFAULT_USAGE.by) p.set('by', s.by);
  if (s.metric !== DEFAULT_USAGE.metric) p.set('metric', s.metric);
  return p;
}

const USAGE_CODEC: UrlStateCodec<UsageState> = { parse: parseUsageSearch, serialize: serializeUsageSearch };

export function useUsageState(): [UsageState, SetUrlState<UsageState>] {
  // each choice a history entry, as before (Back steps through them)
  return useUrlState(USAGE_CODEC, false);
}
