import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The console's shareable state: the statement last run (`?q=`). A statement longer than this is run but not
 * put in the URL: the page request carries the URL, and Node refuses request headers over 16 KB.
 */
export const MAX_URL_SQL_CHARS = 4000;

export function parseSqlSearch(params: URLSearchParams): { q: string | null } {
  const q = params.get('q');
  return { q: q && q.trim() !== '' ? q : null };
}

export function serializeSqlSearch(s: { q: string | null }): URLSearchParams {
  const params = new URLSearchParams();
  if (s.q && s.q.length <= MAX_URL_SQL_CHARS) params.set('q', s.q);
  return params;
}

export function useSqlUrl(): [{ q: string | null }, (q: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseSqlSearch(params), [params]);
  const setQ = useCallback((q: string | null) => setParams(serializeSqlSearch({ q })), [setParams]);
  return [state, setQ];
}
