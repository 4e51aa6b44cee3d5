import { queryOptions } from '@tanstack/react-query';
import type { SqlResult, SqlSchemaResponse } from '../../../../shared/api';
import { getJson, postJson } from '../../api/client';

/** Hierarchical keys. Results are keyed by their statement and `run` (a new run of the same text re-executes). */
export const sqlKeys = {
  all: ['sql'] as const,
  schema: () => [...sqlKeys.all, 'schema'] as const,
  results: () => [...sqlKeys.all, 'result'] as const,
  result: (sql: string, run: number) => [...sqlKeys.results(), { sql, run }] as const,
};

/** GET /api/sql/schema: tables and columns for the schema pane, the examples and the console's limits. */
export function sqlSchemaOptions() {
  return queryOptions({
    queryKey: sqlKeys.schema(),
    queryFn: ({ signal }) => getJson<SqlSchemaResponse>('/api/sql/schema', undefined, { signal }),
    staleTime: 60_000,
  });
}

/**
 * POST /api/sql. A read, so a query, not a mutation: the result is cached per statement and run. Never retried
 * or refetched on its own (a timeout would just time out again, and new log lines must not re-run a statement).
 */
export function sqlResultOptions(sql: string | null, run: number) {
  return queryOptions({
    queryKey: sqlKeys.result(sql ?? '', run),
    queryFn: ({ signal }) => postJson<SqlResult>('/api/sql', { sql }, { signal }),
    enabled: sql !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
