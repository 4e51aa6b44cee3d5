import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef } from 'react';
import type { SpanListResponse, SpanRow } from '../../../../shared/api';
import { SPAN_PAGE, sessionViewKeys, spanPageOptions, type SpanViewParams } from './session.queries';

/** Rows fetched beyond the screen on each side, so that scrolling rarely meets an empty row. */
const MARGIN = 60;

export interface PageSpan {
  first: number;
  last: number;
}

/** The windows (pages) needed to show rows start..end: they change far less often than the rows on screen. */
export function pagesFor(start: number, end: number): PageSpan {
  const first = Math.max(0, Math.floor((start - MARGIN) / SPAN_PAGE));
  return { first, last: Math.max(first, Math.floor((end + MARGIN) / SPAN_PAGE)) };
}

export interface SpanWindow {
  total: number;
  getRow: (index: number) => SpanRow | undefined;
  /** the index of an event among the rows fetched so far, or null */
  findLoaded: (id: number) => number | null;
  matched: number | null;
  /** changes whenever a window arrives */
  stamp: string;
  /**
   * `total` is of this view: false while only the previous view's rows are on screen (kept as placeholders
   * until this view's arrive), whose total is not this view's and must not be read as growth.
   */
  current: boolean;
  isPending: boolean;
  error: unknown;
}

/**
 * The visible rows of a session's span tree, fetched window by window (`span`: the pages on screen).
 * A refetch (live growth) or a change of view keeps the previous rows of the same window on screen until
 * the new ones arrive: no flash, no jump.
 */
export function useSpanWindow(sessionId: string, view: SpanViewParams, span: PageSpan): SpanWindow {
  const queryClient = useQueryClient();
  const firstPage = span.first;
  const lastPage = span.last;
  const pages = useMemo(() => Array.from({ length: lastPage - firstPage + 1 }, (_, k) => firstPage + k), [firstPage, lastPage]);
  const results = useQueries({
    queries: pages.map((page) => ({
      ...spanPageOptions(sessionId, view, page),
      placeholderData: (prev: SpanListResponse | undefined, prevQuery: { queryKey: readonly unknown[] } | undefined) =>
        prevQuery && prevQuery.queryKey[prevQuery.queryKey.length - 1] === page ? prev : undefined,
    })),
  });
  const lastTotal = useRef(0);
  const byPage = new Map<number, SpanListResponse>();
  let total: number | null = null;
  let matched: number | null = null;
  let stamp = '';
  results.forEach((r, k) => {
    if (!r.data) return;
    byPage.set(pages[k], r.data);
    total ??= r.data.total;
    matched ??= r.data.matched;
    stamp += `${pages[k]}:${r.dataUpdatedAt};`;
  });
  if (total !== null) lastTotal.current = total;
  const getRow = useCallback(
    (index: number) => {
      const page = Math.floor(index / SPAN_PAGE);
      const data = byPage.get(page) ?? queryClient.getQueryData<SpanListResponse>(sessionViewKeys.page(sessionId, view, page));
      return data?.rows[index - page * SPAN_PAGE];
    },
    // byPage is rebuilt each render; `stamp` says when it changed
    [stamp, queryClient, sessionId, view], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const findLoaded = useCallback(
    (id: number) => {
      for (const data of byPage.values()) {
        const row = data.rows.find((r) => r.id === id);
        if (row) return row.index;
      }
      return null;
    },
    [stamp], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const firstError = results.find((r) => r.isError)?.error ?? null;
  return {
    total: total ?? lastTotal.current,
    getRow,
    findLoaded,
    matched,
    stamp,
    current: results.some((r) => r.data !== undefined && !r.isPlaceholderData),
    isPending: results.every((r) => r.isPending),
    error: firstError,
  };
}
