import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ChartQuery,
  ErrorGroupsQuery,
  ErrorGroupsResponse,
  EventListQuery,
  EventListResponse,
  HistogramResponse,
  LatencyStatsQuery,
  LatencyStatsResponse,
  RepositoryListResponse,
  ScatterResponse,
  SessionSource,
  TimeseriesResponse,
  TimeWindow,
  TriageCountsQuery,
  TriageCountsResponse,
} from '../../../../shared/api';
import { getJson, type QueryParams } from '../../api/client';

export const EVENTS_PAGE_SIZE = 50;
export const GROUPS_PAGE_SIZE = 50;

const params = (o: object): QueryParams => o as QueryParams;

/** Hierarchical keys: invalidating `triageKeys.all` (new lines indexed) refreshes every triage query. */
export const triageKeys = {
  all: ['triage'] as const,
  counts: (q: TriageCountsQuery) => [...triageKeys.all, 'counts', q] as const,
  events: (q: EventListQuery) => [...triageKeys.all, 'events', q] as const,
  occurrences: (q: EventListQuery) => [...triageKeys.all, 'occurrences', q] as const,
  errorGroups: (q: ErrorGroupsQuery) => [...triageKeys.all, 'errors', q] as const,
  latency: (q: LatencyStatsQuery) => [...triageKeys.all, 'latency', q] as const,
  histogram: (q: ChartQuery) => [...triageKeys.all, 'histogram', q] as const,
  timeseries: (q: ChartQuery) => [...triageKeys.all, 'timeseries', q] as const,
  scatter: (q: ChartQuery) => [...triageKeys.all, 'scatter', q] as const,
  repositories: (window: TimeWindow, source?: SessionSource) => [...triageKeys.all, 'repositories', window, source ?? null] as const,
};

export function countsOptions(q: TriageCountsQuery) {
  return queryOptions({
    queryKey: triageKeys.counts(q),
    queryFn: ({ signal }) => getJson<TriageCountsResponse>('/api/triage/counts', params(q), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/events, one page per cursor. */
export function eventListOptions(q: EventListQuery) {
  return infiniteQueryOptions({
    queryKey: triageKeys.events(q),
    queryFn: ({ pageParam, signal }) =>
      getJson<EventListResponse>('/api/events', params({ ...q, cursor: pageParam ?? undefined, limit: EVENTS_PAGE_SIZE }), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/** The occurrences of one error group (first page; the list view has the rest). */
export function occurrencesOptions(q: EventListQuery) {
  return queryOptions({
    queryKey: triageKeys.occurrences(q),
    queryFn: ({ signal }) => getJson<EventListResponse>('/api/events', params({ ...q, limit: 20 }), { signal }),
  });
}

export function errorGroupsOptions(q: ErrorGroupsQuery) {
  return infiniteQueryOptions({
    queryKey: triageKeys.errorGroups(q),
    queryFn: ({ pageParam, signal }) => getJson<ErrorGroupsResponse>('/api/errors/groups', params({ ...q, offset: pageParam, limit: GROUPS_PAGE_SIZE }), { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset,
    placeholderData: keepPreviousData,
  });
}

export function latencyOptions(q: LatencyStatsQuery) {
  return queryOptions({
    queryKey: triageKeys.latency(q),
    queryFn: ({ signal }) => getJson<LatencyStatsResponse>('/api/stats/latency', params(q), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function histogramOptions(q: ChartQuery) {
  return queryOptions({
    queryKey: triageKeys.histogram(q),
    queryFn: ({ signal }) => getJson<HistogramResponse>('/api/stats/histogram', params(q), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function timeseriesOptions(q: ChartQuery) {
  return queryOptions({
    queryKey: triageKeys.timeseries(q),
    queryFn: ({ signal }) => getJson<TimeseriesResponse>('/api/stats/timeseries', params(q), { signal }),
    placeholderData: keepPreviousData,
  });
}

export function scatterOptions(q: ChartQuery) {
  return queryOptions({
    queryKey: triageKeys.scatter(q),
    queryFn: ({ signal }) => getJson<ScatterResponse>('/api/stats/ttft-scatter', params(q), { signal }),
    placeholderData: keepPreviousData,
  });
}

/** The repositories of the window's sessions, of one source when the page shows one. */
export function repositoriesOptions(window: TimeWindow, source?: SessionSource) {
  return queryOptions({
    queryKey: triageKeys.repositories(window, source),
    queryFn: ({ signal }) => getJson<RepositoryListResponse>('/api/repositories', { window, source }, { signal }),
    placeholderData: keepPreviousData,
  });
}
