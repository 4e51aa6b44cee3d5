import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import type { StreamIndexed } from '../../../shared/api';
import { useServerEvents } from './stream';
import { refetchAfterCommit } from './refetch-after-commit';
import { throttleTrailing } from './throttle';

export interface LiveInvalidationOptions {
  /** only invalidate for messages this returns true for (e.g. the session on screen is among `sessionIds`) */
  when?: (m: StreamIndexed) => boolean;
  /** at most one invalidation per this many ms; backfill sends a message per committed batch */
  throttleMs?: number;
}

/**
 * Keeps queries under `queryKeyPrefix` fresh while the indexer writes: each `indexed` message (and each
 * reconnect) invalidates them, throttled so that a backfill does not turn into a refetch storm.
 */
export function useLiveInvalidation(queryKeyPrefix: QueryKey, opts: LiveInvalidationOptions = {}): void {
  const queryClient = useQueryClient();
  const keyJson = JSON.stringify(queryKeyPrefix);
  const whenRef = useRef(opts.when);
  useEffect(() => {
    whenRef.current = opts.when;
  });
  const invalidate = useMemo(
    () => throttleTrailing(() => void refetchAfterCommit(queryClient, JSON.parse(keyJson) as QueryKey), opts.throttleMs ?? 1500),
    [queryClient, keyJson, opts.throttleMs],
  );
  useEffect(() => () => invalidate.cancel(), [invalidate]);
  useServerEvents({
    onIndexed: (m) => {
      if (!whenRef.current || whenRef.current(m)) invalidate();
    },
    onResync: invalidate,
  });
}
