import { useSyncExternalStore } from 'react';

// One timer for every relative time on the page: they all move together and a long list does not
// start hundreds of intervals.
const TICK_MS = 15_000;
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(fn);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, refreshed every 15 s. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
