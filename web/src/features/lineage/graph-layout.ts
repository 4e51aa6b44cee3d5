import dagre from '@dagrejs/dagre';
import type { Edge, Node } from '@xyflow/react';
import type { LineageNode, LineageTraceResponse, LineageTreeNode } from '../../../../shared/api';
import { agentName, edgeText, relationTone } from './relation';

export const NODE_W = 264;
export const NODE_H = 68;
const STUB_W = 150;
const STUB_H = 36;
/** Above this many nodes the graph opens at a readable zoom on the target instead of fitted whole. */
export const LARGE_GRAPH = 40;

export type SessionNodeData = {
  kind: 'session';
  session: LineageNode;
  role: 'target' | 'ancestor' | 'descendant';
};
export type UnresolvedNodeData = { kind: 'unresolved'; sessionId: string };
export type MoreNodeData = { kind: 'more'; parentId: string; count: number };
/** Leaf siblings of one kind drawn as one node until opened: "24 subagents: Explore ×13, Plan ×11". */
export type GroupNodeData = { kind: 'group'; groupId: string; count: number; summary: string; titles: string[] };
export type LineageNodeData = SessionNodeData | UnresolvedNodeData | MoreNodeData | GroupNodeData;
export type LineageFlowNode = Node<LineageNodeData, 'lineage'>;

export interface LineageGraph {
  nodes: LineageFlowNode[];
  edges: Edge[];
  width: number;
  height: number;
  targetId: string;
}

export const unresolvedNodeId = (id: string) => `unresolved:${id}`;
export const groupNodeId = (parentId: string, tone: string) => `group:${tone}:${parentId}`;

/** Siblings of one kind collapse into a counted group from this many on. */
export const GROUP_MIN = 4;
const GROUP_W = 300;
const GROUP_NOUN: Record<string, [string, string]> = { subagent: ['subagent', 'subagents'], helper: ['helper session', 'helper sessions'] };

/** "24 subagents: Explore ×13, Plan ×11": the names by how many, most first. */
export function groupSummary(tone: string, kids: readonly LineageNode[]): string {
  const counts = new Map<string, number>();
  for (const k of kids) {
    const name = k.label ? agentName(k.label) : (k.toolName ?? 'child');
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const names = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([n, c]) => `${n} ×${c}`);
  const [one, many] = GROUP_NOUN[tone] ?? ['child', 'children'];
  return `${kids.length} ${kids.length === 1 ? one : many}: ${names.join(', ')}`;
}

/** Leaf children grouped by relation tone (subagents, helpers) where there are GROUP_MIN or more; forks and children with their own children stay single. */
function groupsOf(parent: string, kids: readonly LineageTreeNode[], opened: ReadonlySet<string>): { singles: LineageTreeNode[]; groups: { id: string; tone: string; kids: LineageTreeNode[] }[] } {
  const byTone = new Map<string, LineageTreeNode[]>();
  for (const k of kids) {
    const tone = relationTone(k);
    if ((tone !== 'subagent' && tone !== 'helper') || k.descendants.length > 0 || k.hiddenChildren > 0) continue;
    byTone.set(tone, [...(byTone.get(tone) ?? []), k]);
  }
  const grouped = new Set<string>();
  const groups: { id: string; tone: string; kids: LineageTreeNode[] }[] = [];
  for (const [tone, list] of byTone) {
    const id = groupNodeId(parent, tone);
    if (list.length < GROUP_MIN || opened.has(id)) continue;
    groups.push({ id, tone, kids: list });
    for (const k of list) grouped.add(k.id);
  }
  return { singles: kids.filter((k) => !grouped.has(k.id)), groups };
}
export const moreNodeId = (parentId: string) => `more:${parentId}`;

function edgeFor(parent: string, child: string, n: LineageNode | null, extraClass?: string): Edge {
  const classes = ['lineage-edge'];
  if (n?.kind === 'fork' || n?.kind === 'continuation') classes.push('is-fork');
  if (extraClass) classes.push(extraClass);
  return {
    id: `e:${parent}->${child}`,
    source: parent,
    target: child,
    type: 'lineage',
    label: n ? edgeText(n) : undefined,
    className: classes.join(' '),
    focusable: false,
  };
}

/**
 * Trace → nodes and edges placed by dagre, left to right: the farthest ancestor (or the dashed "not in the
 * index" parent) at the left, the target, then its descendants. A parent whose children were cut by depth or
 * limit gets a "+N more" node; GROUP_MIN or more leaf siblings of one kind are one counted group node until its id
 * is in `opened`. Pure: tested without a browser.
 */
export function layoutTrace(trace: LineageTraceResponse, opened: ReadonlySet<string> = new Set()): LineageGraph {
  const nodes: LineageFlowNode[] = [];
  const edges: Edge[] = [];
  const size = new Map<string, [number, number]>();
  const add = (id: string, data: LineageNodeData, w: number, h: number) => {
    // xyflow turns pointer events off on nodes that are neither selectable, draggable nor clickable; ours hold
    // links, so they must receive clicks.
    nodes.push({ id, type: 'lineage', position: { x: 0, y: 0 }, data, width: w, height: h, draggable: false, connectable: false, style: { pointerEvents: 'all' } });
    size.set(id, [w, h]);
  };

  // chain: ancestors are nearest first; draw from the farthest
  const chain = [...trace.ancestors].reverse();
  if (!trace.complete) {
    const id = unresolvedNodeId(trace.unresolvedParentId);
    add(id, { kind: 'unresolved', sessionId: trace.unresolvedParentId }, NODE_W, NODE_H);
    const first = chain[0] ?? trace.target;
    edges.push(edgeFor(id, first.id, first, 'is-unresolved'));
  }
  chain.forEach((a, i) => {
    add(a.id, { kind: 'session', session: a, role: 'ancestor' }, NODE_W, NODE_H);
    if (i > 0) edges.push(edgeFor(chain[i - 1].id, a.id, a));
  });
  add(trace.target.id, { kind: 'session', session: trace.target, role: 'target' }, NODE_W, NODE_H);
  if (chain.length > 0) edges.push(edgeFor(chain[chain.length - 1].id, trace.target.id, trace.target));

  const placeMore = (parentId: string, count: number) => {
    if (count <= 0) return;
    const id = moreNodeId(parentId);
    add(id, { kind: 'more', parentId, count }, STUB_W, STUB_H);
    edges.push(edgeFor(parentId, id, null, 'is-more'));
  };
  const stack: { parent: string; nodes: LineageTreeNode[] }[] = [{ parent: trace.target.id, nodes: trace.descendants }];
  // hidden children of the target itself (depth 0 or a limit hit at the first level)
  const targetHidden = trace.truncated ? trace.truncated.hiddenChildren - sumHidden(trace.descendants) : 0;
  placeMore(trace.target.id, targetHidden);
  while (stack.length > 0) {
    const { parent, nodes: all } = stack.pop()!;
    const { singles: kids, groups } = groupsOf(parent, all, opened);
    for (const g of groups) {
      const summary = groupSummary(g.tone, g.kids);
      add(g.id, { kind: 'group', groupId: g.id, count: g.kids.length, summary, titles: g.kids.map((k) => k.title ?? k.label ?? k.id) }, GROUP_W, NODE_H);
      // the relation its sessions share; none when they differ (helpers: title, summarize, categorization), which
      // the card's summary then says: the first one's named the whole group
      const shared = new Set(g.kids.map(edgeText)).size === 1;
      edges.push(edgeFor(parent, g.id, shared ? g.kids[0] : null, 'is-group'));
    }
    for (const k of kids) {
      add(k.id, { kind: 'session', session: k, role: 'descendant' }, NODE_W, NODE_H);
      edges.push(edgeFor(parent, k.id, k));
      placeMore(k.id, k.hiddenChildren);
      if (k.descendants.length > 0) stack.push({ parent: k.id, nodes: k.descendants });
    }
  }

  const g = new dagre.graphlib.Graph();
  // tight-tree ranking: the graph is a tree, so it is already optimal and much cheaper than network-simplex
  // (longest-path would push every leaf to the last column). ranksep leaves room for the edge labels.
  // A large tree centred on its parents spreads a parent's children thousands of pixels apart; aligned to the
  // first child (UL), each chain of first children is one straight row, readable from the top-left corner.
  const large = nodes.length > LARGE_GRAPH;
  g.setGraph({ rankdir: 'LR', nodesep: 14, ranksep: 120, marginx: 16, marginy: 16, ranker: 'tight-tree', align: large ? 'UL' : undefined });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    const [w, h] = size.get(n.id)!;
    g.setNode(n.id, { width: w, height: h });
  }
  for (const e of edges) g.setEdge(e.source, e.target);
  // A tree has no crossings to remove: the initial order (insertion order, i.e. siblings by creation time) is
  // already the answer, and skipping the crossing-minimisation sweeps makes a 500-node layout 2-3× faster.
  dagre.layout(g, { disableOptimalOrderHeuristic: true });
  for (const n of nodes) {
    const p = g.node(n.id);
    const [w, h] = size.get(n.id)!;
    n.position = { x: p.x - w / 2, y: p.y - h / 2 };
  }
  const graph = g.graph();
  return { nodes, edges, width: graph.width ?? 0, height: graph.height ?? 0, targetId: trace.target.id };
}

function sumHidden(nodes: LineageTreeNode[]): number {
  let n = 0;
  const stack = [...nodes];
  while (stack.length > 0) {
    const x = stack.pop()!;
    n += x.hiddenChildren;
    stack.push(...x.descendants);
  }
  return n;
}
