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
 * Events per load query: each is aggregated into one JSON text by SQLite and parsed at once by V8. The parsed rows
 * are copied into columns and dropped chunk by chunk: 250,000 at once cost ~100 MB of transient heap for the
 * largest family of the bench; 32,000 keep that to a tenth for a few more queries. (Tests set a small chunk.)
 *
 * `collect`: a full collection, run after each chunk of a load that takes more than one. A chunk's JSON text and
 * its outer array are large objects, which V8 places in the old generation at once and frees only in a full
 * collection, so without one the chunks' garbage piled up: the 254k-event family of the bench took the heap from
 * 10 to 60 MB used (88 committed) during its load and the thread's RSS up 116 MB, which it kept. With a collection
 * after each of its 8 chunks (~8 ms each): 25 MB used, 41 committed, RSS up 75 MB (scratch run of `sessionTree`,
 * 4 MB semi-spaces as in the server). The read worker sets it (read-worker.ts); elsewhere it is null.
 */
export const treeLoad: { chunk: number; collect: (() => void) | null } = { chunk: 32_000, collect: null };

/**
 * Appends the rows of the events table for the sessions in scope (id > afterId) to `into`: columns only, the raw
 * lines stay on disk. SQLite builds one JSON array per chunk (an id range) and V8 parses it whole: two to three
 * times faster than one JS row per event through the driver. Rows come out in id (line) order. Returns how many.
 */
function loadEntries(db: Database.Database, scope: SessionScope, into: EntryColumns | null, afterId = 0): { rows: EntryColumns; added: number } {
  const nums = JSON.stringify(scope.sessions.map((s) => s.num));
  const bounds = db
    .prepare('SELECT count(*) n, min(id) lo, max(id) hi FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND id > ?')
    .get(nums, afterId) as { n: number; lo: number | null; hi: number | null };
  const rows = into ?? new EntryColumns(bounds.n);
  if (bounds.n === 0 || bounds.lo === null || bounds.hi === null) return { rows, added: 0 };
  const st = db
    .prepare(
      `SELECT json_group_array(json_array(id, session_num, type, name, span_id, parent_span_id, status, ts, dur, model, tool, ttft,
         tokens_in, tokens_out, dup, r_idx)) FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND id BETWEEN ? AND ?`,
    )
    .pluck();
  const idOf = new Map(scope.sessions.map((s) => [s.num, s.id]));
  const chunks = Math.ceil(bounds.n / treeLoad.chunk);
  const width = Math.ceil((bounds.hi - bounds.lo + 1) / chunks);
  const before = rows.length;
  for (let lo = bounds.lo; lo <= bounds.hi; lo += width) {
    const chunk = JSON.parse(st.get(nums, lo, Math.min(bounds.hi, lo + width - 1)) as string) as EventRow[];
    // json_group_array follows the scan, which is not always id order: sort each chunk.
    chunk.sort((a, b) => a[0] - b[0]);
    for (const r of chunk) rows.pushRow(r[0], idOf.get(r[1]) ?? '', r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
    // after the last chunk too: the tree is built next, and its maps would otherwise join that chunk's garbage
    if (chunks > 1) treeLoad.collect?.();
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
  // A tree that took several chunks left tens of MB of garbage (its owner maps, the axis's arrays): collected now,
  // not at whatever request comes next, so that the thread's heap is back to what it keeps.
  if (rows.length > treeLoad.chunk) treeLoad.collect?.();
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
