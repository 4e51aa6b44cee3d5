import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { dbState } from '../db/db-state';
import type { SpanOverview, TimeAxis } from '../../shared/api';
import { sessionScope, type SessionScope } from './session-scope';
import { EntryColumns } from './entry-columns';
import { buildSpanTree, type SpanTree } from './span-tree';
import { axisHistogram, buildTimeAxis } from './time-axis';
import type { VisibleRows } from './visible-rows';

/** One view of the tree: its folds and the rows they leave visible. */
export interface ViewState {
  collapsed: Set<number>;
  visible: VisibleRows;
}

export interface CachedTree {
  /** changes when the session or a child gains events or a child's link changes */
  version: string;
  /** what the version is made of: the sessions in scope with their links, and the events' count and max id */
  stamp: { scopeKey: string; count: number; maxId: number };
  scope: SessionScope;
  tree: SpanTree;
  axis: TimeAxis | null;
  histogram: { bins: number[]; errors: number[] };
  /** per-view visible rows and per-query text matches, small LRUs (Map keeps insertion order) */
  views: Map<string, ViewState>;
  textMatches: Map<string, Set<number>>;
  /** computed on first use */
  overview: SpanOverview | null;
  /**
   * the database's state (dbState) when the stamp was last checked: while it stays the same the tree is current
   * without computing its scope and stamp again, which for the largest family (1,400 sessions, 230k events) cost
   * 30 of a request's 33 ms
   */
  checkedAt: string;
}

/** Trees kept per connection: a few sessions open in tabs; a 100k-event tree is ~16 MB (packed columns). */
const MAX_TREES = 3;
/**
 * Events in all the kept trees of a connection together, past which the least recently used go (the tree just
 * asked for always stays): three of the largest families would otherwise hold hundreds of MB, and the largest
 * family grows with the corpus (230k events at 1.6 GB).
 */
export const MAX_CACHED_EVENTS = 250_000;
const caches = new WeakMap<Database.Database, Map<string, CachedTree>>();

type EventRow = [number, number, string, string | null, string | null, string | null, number, number | null, number, string | null, string | null, number | null, number | null, number | null, number, number];

/**
 * How a tree's events are read: in id ranges of a few hundred events, each aggregated into one JSON text by SQLite and
 * parsed at once by V8 (two to three times faster than one JS row per event through the driver), copied into columns
 * and dropped. (Tests set small values.)
 *
 * `rangeRows`: events per query where the scope's ids lie close together, the usual case (a backfill writes each
 * session's lines, and a family's sessions, side by side): the query walks the rows of its id range and keeps those
 * of the scope's sessions. Its text (~100 KB) stays under V8's large-object size, so it dies young, in a scavenge.
 * `chunk`: events per query where they are spread among other sessions' rows (a family that went on growing live
 * among others): there the query walks the scope's sessions in `events_session_ts` instead, all of their entries
 * for each query, so it reads many events at once. Such a text is a large object, which V8 places in the old
 * generation and frees only in a full collection: `collect` runs one after each such read of more than `rangeRows`
 * events (the read worker sets it, read-worker.ts; elsewhere it is null). Without one the 254k-event family of the
 * bench took the read worker's RSS up 116 MB, which it kept. `release`, when set, runs after a build of more than
 * `chunk` events instead of `collect`: the read worker's collects, then gives the freed memory back (malloc-trim.ts).
 *
 * The largest family of the 1.6 GiB bench archive (254,419 events, ids side by side), built in a process with the
 * server's launch flags (scratch runs, alternated): read by session, 8 reads and collections, 623–655 ms and the
 * whole build's RSS +88–91 MB at its peak, +73–76 MB kept; by range, 497 reads of 512, 404–478 ms, +73–77 and +58–61
 * MB. 256 to 2,048 rows a read: the same RSS within 3 MB.
 */
export const treeLoad: { rangeRows: number; chunk: number; maxRangeWalk: number; collect: (() => void) | null; release: (() => void) | null } = {
  rangeRows: 512,
  chunk: 32_000,
  /** a range query walks at most this many rows for each event of the scope it returns; past it, the session index */
  maxRangeWalk: 4,
  collect: null,
  release: null,
};

/**
 * Appends the rows of the events table for the sessions in scope (id > afterId) to `into`: columns only, the raw
 * lines stay on disk. The scope's ids first (one JSON text, sorted here), then their rows range by range (treeLoad).
 * Rows come out in id (line) order. Returns how many.
 */
function loadEntries(db: Database.Database, scope: SessionScope, into: EntryColumns | null, afterId = 0): { rows: EntryColumns; added: number } {
  const nums = JSON.stringify(scope.sessions.map((s) => s.num));
  const ids = Float64Array.from(
    JSON.parse(
      db.prepare('SELECT json_group_array(id) FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND id > ?').pluck().get(nums, afterId) as string,
    ) as number[],
  ).sort();
  const rows = into ?? new EntryColumns(ids.length);
  const columns = `json_group_array(json_array(id, session_num, type, name, span_id, parent_span_id, status, ts, dur, model, tool, ttft,
         tokens_in, tokens_out, dup, r_idx))`;
  // `+session_num`: no index on it, so the planner walks the id range (the primary key)
  const byRange = db.prepare(`SELECT ${columns} FROM events WHERE id BETWEEN ? AND ? AND +session_num IN (SELECT value FROM json_each(?))`).pluck();
  const bySession = db.prepare(`SELECT ${columns} FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND id BETWEEN ? AND ?`).pluck();
  const idOf = new Map(scope.sessions.map((s) => [s.num, s.id]));
  const before = rows.length;
  for (let first = 0; first < ids.length; ) {
    let last = Math.min(ids.length, first + treeLoad.rangeRows) - 1;
    const close = ids[last] - ids[first] + 1 <= treeLoad.maxRangeWalk * (last - first + 1);
    if (!close) last = Math.min(ids.length, first + treeLoad.chunk) - 1;
    const text = (close ? byRange.get(ids[first], ids[last], nums) : bySession.get(nums, ids[first], ids[last])) as string;
    const chunk = JSON.parse(text) as EventRow[];
    // json_group_array follows the scan, which is not always id order: sort each chunk.
    chunk.sort((a, b) => a[0] - b[0]);
    for (const r of chunk) rows.pushRow(r[0], idOf.get(r[1]) ?? '', r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
    // only a read larger than a range read makes a text past V8's large-object size (a small family spread among
    // other sessions' rows, read by session in one small read, needs no full collection)
    if (!close && last - first + 1 > treeLoad.rangeRows) treeLoad.collect?.();
    first = last + 1;
  }
  return { rows, added: rows.length - before };
}

function stampOf(db: Database.Database, scope: SessionScope): CachedTree['stamp'] {
  const nums = scope.sessions.map((s) => s.num);
  const agg = db
    .prepare('SELECT count(*) n, max(id) m FROM events WHERE session_num IN (SELECT value FROM json_each(?))')
    .get(JSON.stringify(nums)) as { n: number; m: number | null };
  const scopeKey = scope.sessions.map((s) => `${s.num}:${s.parentSpanId ?? ''}`).join(',');
  return { scopeKey, count: agg.n, maxId: agg.m ?? 0 };
}

const versionOf = (stamp: CachedTree['stamp']) =>
  createHash('sha1').update(`${stamp.scopeKey}|${stamp.count}|${stamp.maxId}`).digest('base64url').slice(0, 16);

/** How long the last build took, by phase (for the benchmark). */
export const buildTimings: Record<string, number> = {};

function build(db: Database.Database, scope: SessionScope, stamp: CachedTree['stamp'], previous: CachedTree | undefined): CachedTree {
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    buildTimings[name] = Math.round(now - t);
    t = now;
  };
  // A live append only adds rows after the ones we have: load just those. Anything else (a new child
  // session, a link found, a rewrite that changed older rows) loads everything again.
  let rows: EntryColumns | null = null;
  if (previous && previous.stamp.scopeKey === stamp.scopeKey && stamp.maxId > previous.stamp.maxId) {
    const next = EntryColumns.extending(previous.tree.rows, stamp.count);
    const { added } = loadEntries(db, scope, next, previous.stamp.maxId);
    if (previous.stamp.count + added === stamp.count) rows = next;
  }
  buildTimings.incremental = rows ? 1 : 0;
  rows ??= loadEntries(db, scope, null).rows;
  lap('load');
  const childLinks = new Map<string, string>();
  for (const s of scope.sessions) if (s.id !== scope.root.id && s.parentSpanId) childLinks.set(s.id, s.parentSpanId);
  const tree = buildSpanTree(rows, { rootSessionId: scope.root.id, childLinks, rootLink: scope.root.parentSpanId, rootIsChild: scope.rootIsChild });
  lap('tree');
  const starts: number[] = [];
  const ends: number[] = [];
  const statuses: number[] = [];
  const { rows: built } = tree;
  for (let i = 0; i < tree.length; i++) {
    const k = tree.order[i];
    const ts = built.ts[k];
    if (Number.isNaN(ts)) continue;
    starts.push(ts);
    ends.push(ts + built.dur[k]);
    statuses.push(built.status[k]);
  }
  const axis = buildTimeAxis(starts, ends);
  const histogram = axisHistogram(axis, starts, statuses);
  lap('axis');
  // A large tree left tens of MB of garbage (its owner maps, the axis's arrays, the ids read first): collected now,
  // not at whatever request comes next, so that the thread's heap is back to what it keeps.
  if (rows.length > treeLoad.chunk) (treeLoad.release ?? treeLoad.collect)?.();
  return { version: versionOf(stamp), stamp, scope, tree, axis, histogram, views: new Map(), textMatches: new Map(), overview: null, checkedAt: '' };
}

/**
 * The span tree of a session, built once and kept while its events stay the same (count and max id of the
 * events in scope): a windowed request then costs a visible-rows pass and the labels of its rows. When the
 * session grows (live), only the new rows are read and the tree is rebuilt in memory.
 */
export function sessionTree(db: Database.Database, sessionId: string, maxEvents = MAX_CACHED_EVENTS): CachedTree | null {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  const state = dbState(db);
  const hit = cache.get(sessionId);
  if (hit && hit.checkedAt === state) {
    cache.delete(sessionId);
    cache.set(sessionId, hit);
    return hit;
  }
  const scope = sessionScope(db, sessionId);
  if (!scope) return null;
  const stamp = stampOf(db, scope);
  cache.delete(sessionId);
  const current = hit && hit.stamp.scopeKey === stamp.scopeKey && hit.stamp.count === stamp.count && hit.stamp.maxId === stamp.maxId ? hit : build(db, scope, stamp, hit);
  current.checkedAt = state;
  cache.set(sessionId, current);
  let events = 0;
  for (const t of cache.values()) events += t.tree.rows.length;
  while (cache.size > MAX_TREES || (cache.size > 1 && events > maxEvents)) {
    const oldest = cache.keys().next().value as string;
    events -= (cache.get(oldest) as CachedTree).tree.rows.length;
    cache.delete(oldest);
  }
  return current;
}

/**
 * How long a read worker keeps its span trees without a request (read-worker.ts): a session view asks for windows
 * while someone reads it, and its tree (the bench's largest family: ~58 MB kept) is what makes each window cheap; a
 * server nobody has asked anything for this long gives the memory back, and the next view builds its tree again
 * (0.9–1.0 s for that family over HTTP, milliseconds for most sessions).
 */
export const TREES_IDLE_MS = 5 * 60_000;

/** Forgets the connection's kept trees (an idle read worker); returns how many events they held. */
export function dropTrees(db: Database.Database): number {
  const events = cachedTreeEvents(db);
  caches.delete(db);
  return events;
}

/** Events in the connection's kept trees (the memory log's count). */
export function cachedTreeEvents(db: Database.Database): number {
  let n = 0;
  for (const t of caches.get(db)?.values() ?? []) n += t.tree.rows.length;
  return n;
}

/** A small LRU on a Map: get-or-compute, keeping at most `max` entries. */
export function remember<K, V>(map: Map<K, V>, key: K, max: number, compute: () => V): V {
  const hit = map.get(key);
  if (hit !== undefined) {
    map.delete(key);
    map.set(key, hit);
    return hit;
  }
  const v = compute();
  map.set(key, v);
  while (map.size > max) map.delete(map.keys().next().value as K);
  return v;
}
