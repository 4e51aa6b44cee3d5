import type Database from 'better-sqlite3';
import { positionIn } from './sorted-position';
import type { RequestSummary, SpanListResponse, SpanOverview, SpanRow, SpanSeekResponse, SpanView } from '../../shared/api';
import { notFound } from '../http/errors';
import { rawLines } from '../db/raw-lines';
import { normalizeQuery, spanFilter } from './span-filter';
import { needsAttrs, spanLabel } from './span-label';
import type { SpanNode, SpanTree } from './span-tree';
import { remember, sessionTree, type CachedTree, type ViewState } from './tree-cache';
import { textMatches } from './text-matches';
import { lineAttrs } from '../ingest/normalize';
import { collapsedSet, openAncestors, visibleRows } from './visible-rows';

/** Requests listed in the overview; a session with more shows the first ones and the total. */
export const MAX_REQUESTS = 500;
const MAX_VIEWS = 8;
const MAX_LABELS = 200_000;

function treeOf(db: Database.Database, sessionId: string): CachedTree {
  const cached = sessionTree(db, sessionId);
  if (!cached) throw notFound(`session ${sessionId}`);
  return cached;
}

function viewKey(view: SpanView): string {
  return JSON.stringify([view.type ?? [], view.status ?? '', view.minDur ?? 0, view.model ?? '', view.tool ?? '', normalizeQuery(view.q), view.fold, view.toggled ?? []]);
}

function viewOf(db: Database.Database, cached: CachedTree, view: SpanView): ViewState {
  return remember(cached.views, viewKey(view), MAX_VIEWS, () => {
    const q = normalizeQuery(view.q);
    const matches = q === '' ? null : remember(cached.textMatches, q, 16, () => textMatches(db, cached.tree, q));
    const filter = spanFilter(view, matches);
    const collapsed = collapsedSet(cached.tree, view.fold, view.toggled, filter !== null);
    return { collapsed, visible: visibleRows(cached.tree, collapsed, filter) };
  });
}

/** The same view with the ancestors of node `i` unfolded; `opened` says which ids that took. */
function viewRevealing(db: Database.Database, cached: CachedTree, view: SpanView, i: number): { state: ViewState; opened: number[] } {
  const base = viewOf(db, cached, view);
  const collapsed = new Set(base.collapsed);
  const opened = openAncestors(cached.tree, i, collapsed);
  if (opened.length === 0) return { state: base, opened };
  // Unfolding is the same as toggling those ids: cache it under that view so the follow-up request hits.
  const toggled = [...(view.toggled ?? [])];
  for (const id of opened) {
    const k = toggled.indexOf(id);
    if (k >= 0) toggled.splice(k, 1);
    else toggled.push(id);
  }
  return { state: viewOf(db, cached, { ...view, toggled }), opened };
}


const labelCaches = new WeakMap<Database.Database, Map<number, string>>();

/** Short labels of some nodes: from columns, or from the raw line for the types that need attrs (cached per event). */
export function labelsFor(db: Database.Database, nodes: SpanNode[]): Map<number, string> {
  let cache = labelCaches.get(db);
  if (!cache) {
    cache = new Map();
    labelCaches.set(db, cache);
  }
  const out = new Map<number, string>();
  const missing: SpanNode[] = [];
  for (const node of nodes) {
    const hit = cache.get(node.entry.id);
    if (hit !== undefined) out.set(node.entry.id, hit);
    else if (!needsAttrs(node.entry)) out.set(node.entry.id, spanLabel(node.entry, null));
    else missing.push(node);
  }
  if (missing.length > 0) {
    const raws = rawLines(db).texts(missing.map((m) => m.entry.id));
    if (cache.size + missing.length > MAX_LABELS) cache.clear();
    for (const node of missing) {
      const r = raws.get(node.entry.id);
      let attrs: Record<string, unknown> | null = null;
      if (r) {
        try {
          attrs = lineAttrs(JSON.parse(r));
        } catch {
          /* the line parsed at ingest; a failure here only costs the label */
        }
      }
      const label = spanLabel(node.entry, attrs);
      cache.set(node.entry.id, label);
      out.set(node.entry.id, label);
    }
  }
  return out;
}

function toRow(tree: SpanTree, i: number, index: number, state: ViewState, labels: Map<number, string>): SpanRow {
  const node = tree.node(i);
  const e = node.entry;
  return {
    id: e.id,
    index,
    type: e.type,
    name: e.name,
    status: e.status === 1 ? 'error' : 'ok',
    start: e.ts,
    duration: e.dur,
    subtreeEnd: node.subtreeEnd,
    depth: node.depth,
    childCount: node.childCount,
    descendants: node.size,
    collapsed: node.size > 0 && state.collapsed.has(e.id),
    sessionId: e.sessionId,
    model: e.model,
    tool: e.tool,
    ttft: e.ttft,
    tokensIn: e.tokensIn,
    tokensOut: e.tokensOut,
    label: labels.get(e.id) ?? '',
    replay: e.dup === 1,
    orphan: node.orphan,
    inferredParent: node.inferredParent,
    match: state.visible.match ? state.visible.match[i] === 1 : true,
  };
}

export interface ListSpansInput extends SpanView {
  offset: number;
  limit: number;
  reveal?: number;
}

/** GET /api/sessions/:id/spans: one window of the visible rows of the session's tree. */
export function listSpans(db: Database.Database, sessionId: string, q: ListSpansInput): SpanListResponse {
  const cached = treeOf(db, sessionId);
  const { tree } = cached;
  let state = viewOf(db, cached, q);
  let revealIndex: number | null = null;
  let revealOpened: number[] = [];
  const revealAt = q.reveal === undefined ? undefined : tree.indexOf(q.reveal);
  if (revealAt !== undefined) {
    const r = viewRevealing(db, cached, q, revealAt);
    state = r.state;
    revealOpened = r.opened;
    revealIndex = positionIn(state.visible.rows, revealAt);
  }
  const { rows } = state.visible;
  const end = Math.min(rows.length, q.offset + q.limit);
  const window: number[] = [];
  for (let k = q.offset; k < end; k++) window.push(rows[k]);
  const labels = labelsFor(db, window.map((i) => tree.node(i)));
  return {
    sessionId: cached.scope.root.id,
    version: cached.version,
    total: rows.length,
    offset: q.offset,
    rows: window.map((i, k) => toRow(tree, i, q.offset + k, state, labels)),
    matched: state.visible.matched,
    stats: tree.stats,
    revealIndex,
    revealOpened,
  };
}

export interface SeekInput extends SpanView {
  from: number;
  dir: 'next' | 'prev';
  what: 'error' | 'match';
}

/**
 * GET /api/sessions/:id/spans/seek: the next (previous) failed event, or filter match, after (before) row
 * `from` in tree order, folded or not: its ancestors open on the way, and the answer names them.
 */
export function seekSpan(db: Database.Database, sessionId: string, q: SeekInput): SpanSeekResponse {
  const cached = treeOf(db, sessionId);
  const { tree } = cached;
  const state = viewOf(db, cached, q);
  const { rows, match } = state.visible;
  if (q.what === 'match' && match === null) return { index: null, id: null, opened: [] };
  const n = tree.length;
  const here = q.from >= 0 && q.from < rows.length ? rows[q.from] : q.dir === 'next' ? -1 : n;
  const wanted = (i: number) => (q.what === 'match' ? match![i] === 1 : tree.status(i) === 1 && (match === null || match[i] === 1));
  let found = -1;
  if (q.dir === 'next') {
    for (let i = here + 1; i < n; i++) if (wanted(i)) { found = i; break; }
  } else {
    for (let i = here - 1; i >= 0; i--) if (wanted(i)) { found = i; break; }
  }
  if (found < 0) return { index: null, id: null, opened: [] };
  const r = viewRevealing(db, cached, q, found);
  return { index: positionIn(r.state.visible.rows, found), id: tree.id(found), opened: r.opened };
}

function requestSummaries(db: Database.Database, tree: SpanTree): { requests: RequestSummary[]; total: number } {
  const picked: number[] = [];
  let total = 0;
  for (let i = 0; i < tree.length; i++) {
    if (tree.type(i) !== 'user_message' || tree.dup(i) !== 0 || tree.sessionId(i) !== tree.rootSessionId) continue;
    total++;
    if (picked.length < MAX_REQUESTS) picked.push(i);
  }
  const labels = labelsFor(db, picked.map((i) => tree.node(i)));
  const requests = picked.map((i): RequestSummary => {
    const node = tree.node(i);
    const starts = new Set<string>();
    const ends = new Set<string>();
    let errors = 0;
    for (let k = i + 1; k <= i + node.size; k++) {
      if (tree.status(k) === 1) errors++;
      if (tree.parent[k] !== i) continue;
      const type = tree.type(k);
      if (type !== 'turn_start' && type !== 'turn_end') continue;
      const { name, id } = tree.entry(k);
      const turn = name.includes(':') ? name.slice(name.indexOf(':') + 1) : String(id);
      if (type === 'turn_start') starts.add(turn);
      else ends.add(turn);
    }
    let unfinished = 0;
    for (const t of starts) if (!ends.has(t)) unfinished++;
    return {
      id: node.entry.id,
      label: labels.get(node.entry.id) ?? '',
      start: node.entry.ts,
      end: node.subtreeEnd,
      iterations: starts.size,
      unfinished,
      errors,
      sessionId: node.entry.sessionId,
    };
  });
  return { requests, total };
}

/** GET /api/sessions/:id/spans/overview: what does not change with the window: axis, minimap, requests, facets. */
export function spanOverview(db: Database.Database, sessionId: string): SpanOverview {
  const cached = treeOf(db, sessionId);
  if (cached.overview) return cached.overview;
  const { tree } = cached;
  const types = new Map<string, number>();
  const models = new Set<string>();
  const tools = new Map<string, number>();
  for (let i = 0; i < tree.length; i++) {
    const type = tree.type(i);
    const model = tree.model(i);
    const tool = tree.tool(i);
    types.set(type, (types.get(type) ?? 0) + 1);
    if (model) models.add(model);
    if (tool) tools.set(tool, (tools.get(tool) ?? 0) + 1);
  }
  const { requests, total } = requestSummaries(db, tree);
  const overview: SpanOverview = {
    sessionId: cached.scope.root.id,
    version: cached.version,
    sessionIds: cached.scope.sessions.map((s) => s.id),
    stats: tree.stats,
    axis: cached.axis,
    histogram: cached.histogram,
    requests,
    requestsTotal: total,
    types: [...types].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count),
    models: [...models].sort(),
    tools: [...tools].map(([tool, count]) => ({ tool, count })).sort((a, b) => b.count - a.count || a.tool.localeCompare(b.tool)),
  };
  cached.overview = overview;
  return overview;
}
