import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CacheQuery, CacheResponse, CustomizationsQuery, CustomizationsResponse, UsageQuery, UsageResponse } from '../../../../shared/api';
import { getJson, type QueryParams } from '../../api/client';

/** Hierarchical keys: invalidating `usageKeys.all` (new lines indexed) refreshes usage and customizations. */
export const usageKeys = {
  all: ['usage'] as const,
  usage: (q: UsageQuery) => [...usageKeys.all, 'totals', q] as const,
  cache: (q: CacheQuery) => [...usageKeys.all, 'cache', q] as const,
  customizations: (q: CustomizationsQuery) => [...usageKeys.all, 'customizations', q] as const,
};

export function usageOptions(q: UsageQuery) {
  return queryOptions({
    queryKey: usageKeys.usage(q),
    queryFn: ({ signal }) => getJson<UsageResponse>('/api/usage', q as QueryParams, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function cacheOptions(q: CacheQuery) {
  return queryOptions({
    queryKey: usageKeys.cache(q),
    queryFn: ({ signal }) => getJson<CacheResponse>('/api/usage/cache', q as QueryParams, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function customizationsOptions(q: CustomizationsQuery) {
  return queryOptions({
    queryKey: usageKeys.customizations(q),
    queryFn: ({ signal }) => getJson<CustomizationsResponse>('/api/customizations', q as QueryParams, { signal }),
    placeholderData: keepPreviousData,
  });
}
