import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { BackfillProgress, StreamIndexed } from '../../../shared/api';
import { createServerEvents, type StreamStatus } from './server-events';

/** The page's one connection to GET /api/stream, opened by the first subscriber. */
export const serverEvents = createServerEvents({ url: '/api/stream', connect: (url) => new EventSource(url) });

/** The latest backfill progress the server sent (null until the first message). */
export function useBackfillProgress(): BackfillProgress | null {
  return useSyncExternalStore(serverEvents.subscribeState, serverEvents.getProgress, () => null);
}

export function useStreamStatus(): StreamStatus {
  return useSyncExternalStore(serverEvents.subscribeState, serverEvents.getStatus, () => 'idle' as const);
}

/**
 * Calls `onIndexed` for every `indexed` message while the component is mounted (the latest callback, so
 * it may close over props), and `onResync` after a reconnect, when messages may have been missed.
 */
export function useServerEvents(handlers: { onIndexed?: (m: StreamIndexed) => void; onResync?: () => void }): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    const offIndexed = serverEvents.onIndexed((m) => ref.current.onIndexed?.(m));
    const offResync = serverEvents.onResync(() => ref.current.onResync?.());
    return () => {
      offIndexed();
      offResync();
    };
  }, []);
}
