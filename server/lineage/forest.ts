import type Database from 'better-sqlite3';
import { WINDOW_MS, type LineageForestQuery, type LineageForestResponse, type LineageNode, type LineageTree, type LineageTreeNode, type LineageTreeStats } from '../../shared/api';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { lineageReader } from './lineage-db';
import { bySiblingOrder } from './trace';

/** Sessions drawn per page of trees; a tree past the budget is cut (its nodes say how many children are hidden). */
export const FOREST_NODE_BUDGET = 3000;

const SUBAGENT_LABEL = /^(runSubagent|searchSubagent)/;

export function isSubagent(n: Pick<LineageNode, 'kind' | 'label' | 'toolSpanId'>): boolean {
  return n.kind === 'child' && (n.toolSpanId !== null || SUBAGENT_LABEL.test(n.label ?? ''));
}

interface Family {
  parentOf: Map<string, string>;
  childrenOf: Map<string, string[]>;
}

function loadFamily(db: Database.Database): Family {
  const parentOf = new Map<string, string>();
  const childrenOf = new Map<string, string[]>();
  for (const e of db.prepare('SELECT child_id, parent_id FROM session_edges').all() as { child_id: string; parent_id: string }[]) {
    parentOf.set(e.child_id, e.parent_id);
    const list = childrenOf.get(e.parent_id);
    if (list) list.push(e.child_id);
    else childrenOf.set(e.parent_id, [e.child_id]);
  }
  return { parentOf, childrenOf };
}

/** The top of a session's chain among indexed sessions; a loop is cut at its smallest id. */
function topOf(id: string, f: Family, indexed: (id: string) => boolean, memo: Map<string, { root: string; cycle: string[] | null }>) {
  const path: string[] = [];
  const onPath = new Map<string, number>();
  let cur = id;
  let found: { root: string; cycle: string[] | null } | undefined;
  for (;;) {
    found = memo.get(cur);
    if (found) break;
    if (onPath.has(cur)) {
      const loop = path.slice(onPath.get(cur));
      const root = loop.reduce((a, b) => (b < a ? b : a));
      const at = loop.indexOf(root);
      // named from the root the loop is cut at, following the parent links
      found = { root, cycle: [...loop.slice(at), ...loop.slice(0, at)] };
      break;
    }
    onPath.set(cur, path.length);
    path.push(cur);
    const p = f.parentOf.get(cur);
    if (p === undefined || !indexed(p)) {
      found = { root: cur, cycle: null };
      break;
    }
    cur = p;
  }
  for (const p of path) memo.set(p, found);
  return found;
}

/**
 * GET /api/lineage: every tree that has a session active in the window (and repository), rooted at the top of
 * its chain, newest activity first. The parent links are read whole (one row per child session: small) and
 * walked in memory; the sessions of the page are then read in one query.
 */
export function lineageForest(db: Database.Database, q: LineageForestQuery, now = Date.now()): LineageForestResponse {
  const where = ['(s.event_count > 0 OR s.log_deleted = 1)'];
  const params: Record<string, unknown> = {};
  if (q.repo !== undefined) {
    where.push(q.repo === '' ? 's.repository IS NULL' : 's.repository = @repo');
    if (q.repo !== '') params.repo = q.repo;
  }
  const span = WINDOW_MS[q.window];
  if (span !== null) {
    where.push('s.last_ts >= @since');
    params.since = now - span;
  }
  const active = db.prepare(`SELECT s.id, s.last_ts FROM sessions s WHERE ${where.join(' AND ')}`).all(params) as { id: string; last_ts: number | null }[];
  const family = loadFamily(db);
  const parentIds = [...new Set(family.parentOf.values())];
  const indexedParents = new Set(
    (db.prepare('SELECT id FROM sessions WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(parentIds)) as { id: string }[]).map((r) => r.id),
  );
  const indexed = (id: string) => indexedParents.has(id);

  const memo = new Map<string, { root: string; cycle: string[] | null }>();
  const groups = new Map<string, { key: number; cycle: string[] | null }>();
  for (const a of active) {
    const top = topOf(a.id, family, indexed, memo);
    const g = groups.get(top.root);
    const key = a.last_ts ?? 0;
    if (!g) groups.set(top.root, { key, cycle: top.cycle });
    else if (key > g.key) g.key = key;
  }

  let roots = [...groups.entries()].map(([root, g]) => ({ root, ...g }));
  if (q.branching === '1') roots = roots.filter((r) => (family.childrenOf.get(r.root)?.length ?? 0) > 0);
  roots.sort((a, b) => b.key - a.key || (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
  const total = roots.length;
  const after = decodeCursor(q.cursor, 2);
  if (after) {
    const [k, r] = after as [number, string];
    roots = roots.filter((x) => x.key < k || (x.key === k && x.root > r));
  }
  const page = roots.slice(0, q.limit);
  const more = roots.length > q.limit;

  // every session of the page's trees, for the stats; the drawn trees stop at the node budget
  const members = new Map<string, string[]>();
  for (const r of page) members.set(r.root, idsBelow(r.root, family));
  const reader = lineageReader(db);
  const nodes = reader.getMany([...new Set([...members.values()].flat())]);

  let budget = FOREST_NODE_BUDGET;
  let truncated = false;
  const trees: LineageTree[] = [];
  for (const r of page) {
    const root = nodes.get(r.root);
    if (!root) continue;
    const ids = members.get(r.root)!;
    const built = buildTree(root, family, nodes, budget);
    budget -= built.drawn;
    if (built.cut) truncated = true;
    trees.push({
      root: built.tree,
      unresolvedParentId: root.parentId !== null && !indexed(root.parentId) ? root.parentId : null,
      cycle: r.cycle,
      stats: statsOf(ids.map((id) => nodes.get(id)).filter((n): n is LineageNode => n !== undefined), built.depth),
    });
  }
  const last = page[page.length - 1];
  return { trees, nextCursor: more && last ? encodeCursor([last.key, last.root]) : null, total, truncated };
}

/** The root and every session below it (a loop is walked once). */
function idsBelow(root: string, f: Family): string[] {
  const out = [root];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const c of f.childrenOf.get(out[i]) ?? []) {
      if (!seen.has(c)) {
        seen.add(c);
        out.push(c);
      }
    }
  }
  return out;
}

function buildTree(root: LineageNode, f: Family, nodes: Map<string, LineageNode>, budget: number) {
  const top: LineageTreeNode = { ...root, descendants: [], hiddenChildren: 0 };
  const seen = new Set([root.id]);
  let level = [top];
  let drawn = 1;
  let depth = 0;
  let cut = false;
  while (level.length > 0) {
    const next: LineageTreeNode[] = [];
    for (const parent of level) {
      const kids = (f.childrenOf.get(parent.id) ?? [])
        .filter((id) => !seen.has(id))
        .map((id) => nodes.get(id))
        .filter((n): n is LineageNode => n !== undefined)
        .sort(bySiblingOrder);
      for (const k of kids) {
        seen.add(k.id);
        if (drawn >= budget) {
          parent.hiddenChildren++;
          cut = true;
          continue;
        }
        const t: LineageTreeNode = { ...k, descendants: [], hiddenChildren: 0 };
        parent.descendants.push(t);
        next.push(t);
        drawn++;
      }
    }
    if (next.length > 0) depth++;
    level = next;
  }
  return { tree: top, drawn, depth, cut };
}

function statsOf(ns: LineageNode[], depth: number): LineageTreeStats {
  let subagents = 0;
  let helpers = 0;
  let forks = 0;
  let events = 0;
  let errors = 0;
  let withErrors = 0;
  let lastActivity: number | null = null;
  for (const n of ns) {
    if (isSubagent(n)) subagents++;
    else if (n.kind === 'child') helpers++;
    else if (n.kind === 'fork' || n.kind === 'continuation') forks++;
    events += n.eventCount;
    errors += n.errorCount;
    if (n.errorCount > 0) withErrors++;
    if (n.lastTs !== null && (lastActivity === null || n.lastTs > lastActivity)) lastActivity = n.lastTs;
  }
  return { sessions: ns.length, subagents, helpers, forks, events, errors, sessionsWithErrors: withErrors, depth, lastActivity };
}
