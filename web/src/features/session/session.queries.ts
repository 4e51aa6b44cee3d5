import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { EventDetail, RequestBreakdownList, RequestListResponse, RequestTimeline, SessionDetail, SpanListResponse, SpanOverview, SpanSeekResponse } from '../../../../shared/api';
import { getJson, type QueryParams } from '../../api/client';

/** Rows per window request: a screenful or two around what is on screen. */
export const SPAN_PAGE = 200;

/** The spans API view: filters plus folds (`fold`, sorted `toggled`). */
export type SpanViewParams = QueryParams & { fold: 'default' | 'none' | 'all'; toggled: string | undefined };

/**
 * Hierarchical keys: `sessionViewKeys.session(id)` covers everything one session page shows (invalidated
 * when the indexer touches the session or a child); events are immutable and keyed on their own.
 */
export const sessionViewKeys = {
  all: ['session-view'] as const,
  session: (id: string) => [...sessionViewKeys.all, id] as const,
  detail: (id: string) => [...sessionViewKeys.session(id), 'detail'] as const,
  overview: (id: string) => [...sessionViewKeys.session(id), 'overview'] as const,
  requests: (id: string) => [...sessionViewKeys.session(id), 'requests'] as const,
  /** the request an event belongs to: its breakdown and critical path (grows with the session: under session(id)) */
  request: (id: string, event: number) => [...sessionViewKeys.session(id), 'request', event] as const,
  breakdowns: (id: string) => [...sessionViewKeys.session(id), 'breakdowns'] as const,
  spans: (id: string, view: SpanViewParams) => [...sessionViewKeys.session(id), 'spans', view] as const,
  page: (id: string, view: SpanViewParams, page: number) => [...sessionViewKeys.spans(id, view), page] as const,
  /** outside `session(id)` on purpose: a live refresh must not move the view back to a deep link */
  locate: (id: string, view: SpanViewParams, event: number, nonce: number) => ['session-locate', id, view, event, nonce] as const,
  event: (id: number, maxChars: number | null) => ['event', id, maxChars] as const,
};

export function sessionDetailOptions(id: string) {
  return queryOptions({
    queryKey: sessionViewKeys.detail(id),
    queryFn: ({ signal }) => getJson<SessionDetail>(`/api/sessions/${encodeURIComponent(id)}`, undefined, { signal }),
  });
}

export function spanOverviewOptions(id: string) {
  return queryOptions({
    queryKey: sessionViewKeys.overview(id),
    queryFn: ({ signal }) => getJson<SpanOverview>(`/api/sessions/${encodeURIComponent(id)}/spans/overview`, undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** One window of visible rows. A refetch (live growth) keeps the old rows on screen until the new arrive. */
export function spanPageOptions(id: string, view: SpanViewParams, page: number) {
  return queryOptions({
    queryKey: sessionViewKeys.page(id, view, page),
    queryFn: ({ signal }) =>
      getJson<SpanListResponse>(`/api/sessions/${encodeURIComponent(id)}/spans`, { ...view, offset: page * SPAN_PAGE, limit: SPAN_PAGE }, { signal }),
    staleTime: 60_000,
  });
}

/** Where an event sits in this view (its folded ancestors opened): a deep link or a kept selection. */
export function spanLocateOptions(id: string, view: SpanViewParams, event: number, nonce: number) {
  return queryOptions({
    queryKey: sessionViewKeys.locate(id, view, event, nonce),
    queryFn: ({ signal }) => getJson<SpanListResponse>(`/api/sessions/${encodeURIComponent(id)}/spans`, { ...view, reveal: event, offset: 0, limit: 1 }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function seekSpan(id: string, view: SpanViewParams, from: number, dir: 'next' | 'prev', what: 'error' | 'match' = 'error') {
  return getJson<SpanSeekResponse>(`/api/sessions/${encodeURIComponent(id)}/spans/seek`, { ...view, from, dir, what });
}

export function requestTimelineOptions(id: string, event: number) {
  return queryOptions({
    queryKey: sessionViewKeys.request(id, event),
    queryFn: ({ signal }) => getJson<RequestTimeline>(`/api/sessions/${encodeURIComponent(id)}/spans/timeline`, { event }, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function requestBreakdownsOptions(id: string) {
  return queryOptions({
    queryKey: sessionViewKeys.breakdowns(id),
    queryFn: ({ signal }) => getJson<RequestBreakdownList>(`/api/sessions/${encodeURIComponent(id)}/spans/breakdowns`, undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** First this many characters of every string; "load all" asks again without a bound. */
export const DETAIL_MAX_CHARS = 64 * 1024;

export function eventDetailOptions(id: number, maxChars: number | null) {
  return queryOptions({
    queryKey: sessionViewKeys.event(id, maxChars),
    queryFn: ({ signal }) => getJson<EventDetail>(`/api/events/${id}`, { maxChars: maxChars ?? undefined }, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The requests-only view: every request of the session with its totals. */
export function sessionRequestsOptions(id: string) {
  return queryOptions({
    queryKey: sessionViewKeys.requests(id),
    queryFn: ({ signal }) => getJson<RequestListResponse>(`/api/sessions/${encodeURIComponent(id)}/spans/requests`, undefined, { signal }),
    placeholderData: keepPreviousData,
  });
}
