import { queryOptions } from '@tanstack/react-query';
import type { Health } from '../../../../shared/api';
import { getJson } from '../../api/client';

export const healthKeys = {
  all: ['health'] as const,
};

/** GET /api/health: counts, roots, backfill state and the newest problems; shared by the top bar, the demo banner and /health. */
export function healthQueryOptions() {
  return queryOptions({
    queryKey: healthKeys.all,
    queryFn: ({ signal }) => getJson<Health>('/api/health', undefined, { signal }),
    staleTime: 10_000,
  });
}
