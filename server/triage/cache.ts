import type Database from 'better-sqlite3';
import { WINDOW_MS, type TimeWindow } from '../../shared/time-window';
import { KeptWhileUnchanged } from '../db/db-state';
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
  return kept(map, `${name}|${model.version}`, params, now, compute);
}

const sqlResults = new KeptWhileUnchanged(() => new Map<string, unknown>());

/**
 * The same for a result SQL computes without the model: reused while nothing was committed (dbState), so that it
 * never waits for the model to sync a commit.
 */
export function cachedWhileUnchanged<T>(db: Database.Database, name: string, params: object & { window?: TimeWindow }, now: number, compute: () => T): T {
  return kept(sqlResults.get(db), name, params, now, compute);
}

function kept<T>(map: Map<string, unknown>, name: string, params: object & { window?: TimeWindow }, now: number, compute: () => T): T {
  const minute = params.window !== undefined && params.window !== 'all' ? Math.floor(now / 60_000) : 0;
  const key = `${name}|${minute}|${JSON.stringify(params)}`;
  if (map.has(key)) return map.get(key) as T;
  const value = compute();
  map.set(key, value);
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value as string);
  return value;
}
