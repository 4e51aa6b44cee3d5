import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../api/client';

/**
 * Server data is kept fresh by the event stream (useLiveInvalidation), not by polling or focus refetches:
 * a tab coming back to the front does not refetch everything, and data stays fresh for 30 s otherwise.
 * A 4xx (bad filter, unknown id) is not retried: it would fail the same way.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        gcTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => !(error instanceof ApiRequestError && error.isClientError) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}
