import { WINDOW_MS, type TimeWindow } from '../../shared/time-window';
import type { TriageModel } from './model';

const MAX_ENTRIES = 64;
const results = new WeakMap<TriageModel, Map<string, unknown>>();

/** The start of a window relative to now; -Infinity for 'all'. */
export function windowStart(window: TimeWindow, now: number): number {
  const span = WINDOW_MS[window];
  return span === null ? -Infinity : now - span;
}

/**
 * A computed result, reused while the index is unchanged: keyed by the model's version (schema cookie, last
 * event id, sessions) and the parameters, plus the minute when the window is relative to now, so that a
 * '24h' answer slides with the clock. Bounded: the oldest entry goes first.
 */
export function cachedResult<T>(model: TriageModel, name: string, params: object & { window?: TimeWindow }, now: number, compute: () => T): T {
  let map = results.get(model);
  if (!map) {
    map = new Map();
    results.set(model, map);
  }
  const minute = params.window !== undefined && params.window !== 'all' ? Math.floor(now / 60_000) : 0;
  const key = `${name}|${model.version}|${minute}|${JSON.stringify(params)}`;
  if (map.has(key)) return map.get(key) as T;
  const value = compute();
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
  return value;
}
