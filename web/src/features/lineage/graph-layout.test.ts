import { describe, expect, it } from 'vitest';
import type { LineageNode, LineageTraceResponse, LineageTreeNode } from '../../../../shared/api';
import { forestRows } from './forest-rows';
import { GROUP_MIN, groupNodeId, groupSummary, layoutTrace, moreNodeId, unresolvedNodeId, type GroupNodeData } from './graph-layout';
import { HOSTILE, HOSTILE_SHOWN } from '../../test-support/hostile-text';
import { edgeText, nodeBadge } from './relation';
import { parseForestSearch, parseTraceSearch, serializeForestSearch } from './url';

const node = (id: string, o: Partial<LineageNode> = {}): LineageNode => ({
  id,
  title: `title ${id}`,
  label: null,
  parentId: null,
  kind: null,
  source: null,
  toolSpanId: null,
  toolName: null,
  createdAt: 0,
  firstTs: 0,
  lastTs: 1000,
  durationMs: 1000,
  eventCount: 3,
  errorCount: 0,
  repository: null,
  isChild: false,
  logDeleted: false,
  hasLog: true,
  childCount: 0,
  ...o,
});
const tree = (n: LineageNode, descendants: LineageTreeNode[] = [], hiddenChildren = 0): LineageTreeNode => ({ ...n, descendants, hiddenChildren });

// M (not in the index) ┄┄ F (fork) ── T (target, a subagent)
//                                      ├─ A (title)
//                                      └─ B (subagent) + 2 hidden
const trace: LineageTraceResponse = {
  target: node('T', { kind: 'child', label: 'runSubagent-Explore', toolName: 'runSubagent', toolSpanId: 'Y', parentId: 'F' }),
  ancestors: [node('F', { kind: 'fork', parentId: 'M' })],
  descendants: [
    tree(node('A', { kind: 'child', label: 'title', parentId: 'T' })),
    tree(node('B', { kind: 'child', label: 'searchSubagent', toolName: 'search_subagent', toolSpanId: 'Z', parentId: 'T', errorCount: 2 }), [], 2),
  ],
  descendantCount: 2,
  truncated: { byDepth: true, byLimit: false, hiddenChildren: 2 },
  complete: false,
  unresolvedParentId: 'M',
};

describe('layoutTrace', () => {
  it('draws the unresolved parent, the chain, the target, the descendants and a "+N more" node', () => {
    const g = layoutTrace(trace);
    expect(g.nodes.map((n) => n.id).sort()).toEqual(['A', 'B', 'F', 'T', moreNodeId('B'), unresolvedNodeId('M')].sort());
    expect(g.edges.map((e) => `${e.source}->${e.target}:${e.label ?? ''}`).sort()).toEqual(
      ['unresolved:M->F:forked', 'F->T:runSubagent', 'T->A:title', 'T->B:search_subagent', 'B->more:B:'].sort(),
    );
    const byId = new Map(g.nodes.map((n) => [n.id, n]));
    expect(byId.get('T')!.data).toMatchObject({ kind: 'session', role: 'target' });
    expect(byId.get('F')!.data).toMatchObject({ kind: 'session', role: 'ancestor' });
    expect(byId.get(moreNodeId('B'))!.data).toEqual({ kind: 'more', parentId: 'B', count: 2 });
    // left to right: each parent sits left of its children
    for (const e of g.edges) expect(byId.get(e.source)!.position.x, `${e.source} → ${e.target}`).toBeLessThan(byId.get(e.target)!.position.x);
    expect(g.edges.find((e) => e.target === 'F')!.className).toContain('is-unresolved');
  });

  it('lays out 500 nodes quickly and without overlaps', () => {
    const kids: LineageTreeNode[] = [];
    for (let i = 0; i < 25; i++) {
      const grand: LineageTreeNode[] = [];
      for (let j = 0; j < 19; j++) grand.push(tree(node(`g${i}-${j}`, { kind: 'child', label: 'title' })));
      kids.push(tree(node(`c${i}`, { kind: 'child', label: 'runSubagent-x' }), grand));
    }
    const big: LineageTraceResponse = { ...trace, ancestors: [], complete: true, root: trace.target, descendants: kids, descendantCount: 500, truncated: null } as LineageTraceResponse;
    // grouped, each subagent's 19 helpers are one node; opened, every session is drawn
    expect(layoutTrace(big).nodes).toHaveLength(51);
    const t0 = performance.now();
    const g = layoutTrace(big, new Set(kids.map((k) => groupNodeId(k.id, 'helper'))));
    const ms = performance.now() - t0;
    expect(g.nodes).toHaveLength(501);
    expect(ms).toBeLessThan(1500);
    const boxes = g.nodes.map((n) => ({ x: n.position.x, y: n.position.y, w: n.width!, h: n.height! }));
    const sameColumn = boxes.filter((b) => Math.abs(b.x - boxes[boxes.length - 1].x) < 1).sort((a, b) => a.y - b.y);
    for (let i = 1; i < sameColumn.length; i++) expect(sameColumn[i].y).toBeGreaterThanOrEqual(sameColumn[i - 1].y + sameColumn[i - 1].h);
  });
});

describe('forestRows', () => {
  it('flattens trees in pre-order with depth, guides and "+N more" after the shown children', () => {
    // R
    // ├─ X
    // │  └─ Y
    // └─ Z   (+1 more below Z)
    const rows = forestRows([
      {
        root: tree(node('R'), [tree(node('X'), [tree(node('Y'))]), tree(node('Z'), [], 1)]),
        unresolvedParentId: 'gone',
        cycle: null,
        stats: { sessions: 5, subagents: 0, helpers: 0, forks: 0, events: 0, errors: 0, sessionsWithErrors: 0, depth: 2, lastActivity: null },
      },
    ]);
    expect(rows.map((r) => (r.kind === 'tree' ? 'tree' : r.kind === 'more' ? `more:${r.parentId}@${r.depth}` : `${r.node.id}@${r.depth}${r.last ? ' last' : ''} [${r.guides.map(Number).join('')}]`))).toEqual([
      'tree',
      'R@0 last []',
      'X@1 []',
      'Y@2 last [1]',
      'Z@1 last []',
      'more:Z@2',
    ]);
    expect(rows[1]).toMatchObject({ unresolvedParentId: 'gone' });
  });
});

describe('relation words and URL state', () => {
  it('names nodes and edges by how the child was started', () => {
    expect(nodeBadge({ kind: 'child', label: 'runSubagent-Explore' })).toBe('subagent · Explore');
    expect(nodeBadge({ kind: 'continuation', label: null })).toBe('continued');
    expect(nodeBadge({ kind: null, label: null })).toBeNull();
    expect(edgeText({ kind: 'child', label: 'summarize', toolName: null, toolSpanId: null, source: 'folder' })).toBe('summarize');
    expect(edgeText({ kind: 'child', label: 'runSubagent-x', toolName: null, toolSpanId: 'Y', source: 'child_ref' })).toBe('tool call');
  });

  it('shows the log text in badges and edge labels with invisible and bidi characters as escapes', () => {
    expect(nodeBadge({ kind: 'child', label: `runSubagent-${HOSTILE}` })).toBe(`subagent · ${HOSTILE_SHOWN}`);
    expect(nodeBadge({ kind: 'child', label: HOSTILE })).toBe(HOSTILE_SHOWN);
    expect(edgeText({ kind: 'child', label: null, toolName: HOSTILE, toolSpanId: 'Y', source: 'child_ref' })).toBe(HOSTILE_SHOWN);
    expect(edgeText({ kind: 'child', label: HOSTILE, toolName: null, toolSpanId: null, source: 'folder' })).toBe(HOSTILE_SHOWN);
  });

  it('keeps forest filters and trace bounds in the URL, defaults left out', () => {
    expect(serializeForestSearch({ repo: undefined, window: 'all', branching: false }).toString()).toBe('');
    const f = { repo: '', window: '7d' as const, branching: true };
    expect(parseForestSearch(serializeForestSearch(f))).toEqual(f);
    expect(parseTraceSearch(new URLSearchParams('depth=3&limit=99999'))).toEqual({ depth: 3, limit: 5000 });
    expect(parseTraceSearch(new URLSearchParams('depth=x'))).toEqual({ depth: undefined, limit: undefined });
  });
});

describe('sibling groups', () => {
  // R (target) ├─ F (fork) and 24 subagents: 13 Explore, 11 Plan
  const subagents = Array.from({ length: 24 }, (_, i) =>
    tree(node(`S${i}`, { kind: 'child', label: i < 13 ? 'runSubagent-Explore' : 'runSubagent-Plan', toolName: 'runSubagent', toolSpanId: `t${i}`, parentId: 'R', title: `look at part ${i}` })),
  );
  const big: LineageTraceResponse = {
    target: node('R'),
    ancestors: [],
    descendants: [tree(node('F', { kind: 'fork', parentId: 'R' })), ...subagents],
    descendantCount: 25,
    truncated: null,
    complete: true,
    root: node('R'),
  };

  it('one fork and 24 subagents draw as three nodes: the session, the fork and "24 subagents: Explore ×13, Plan ×11"', () => {
    const g = layoutTrace(big);
    expect(g.nodes.map((n) => n.id)).toEqual(['R', groupNodeId('R', 'subagent'), 'F']);
    const group = g.nodes[1].data as GroupNodeData;
    expect(group.summary).toBe('24 subagents: Explore ×13, Plan ×11');
    expect(group.count).toBe(24);
    expect(group.titles.slice(0, 2)).toEqual(['look at part 0', 'look at part 1']);
    expect(g.edges.map((e) => `${e.source}->${e.target}`)).toEqual([`R->${groupNodeId('R', 'subagent')}`, 'R->F']);
  });

  it("a group's edge names the relation its sessions share, and none when they differ", () => {
    expect(layoutTrace(big).edges.find((e) => e.target === groupNodeId('R', 'subagent'))?.label).toBe('runSubagent');
    const helpers = ['categorization', 'title', 'summarize', 'summarize', 'summarize', 'title'].map((label, i) => tree(node(`H${i}`, { kind: 'child', label, parentId: 'R' })));
    const mixed: LineageTraceResponse = { ...big, descendants: helpers.slice(0, Math.max(GROUP_MIN, 3)) };
    const edge = layoutTrace(mixed).edges.find((e) => e.target === groupNodeId('R', 'helper'));
    expect(edge).toMatchObject({ source: 'R' });
    expect(edge?.label).toBeUndefined();
  });

  it('an opened group draws each of its sessions', () => {
    const g = layoutTrace(big, new Set([groupNodeId('R', 'subagent')]));
    expect(g.nodes).toHaveLength(26);
    expect(g.nodes.filter((n) => n.data.kind === 'group')).toEqual([]);
  });

  it('fewer than GROUP_MIN siblings of a kind, and siblings with children of their own, stay single', () => {
    const few: LineageTraceResponse = { ...big, descendants: subagents.slice(0, GROUP_MIN - 1) };
    expect(layoutTrace(few).nodes.map((n) => n.data.kind)).toEqual(['session', 'session', 'session', 'session']);
    const parents: LineageTraceResponse = { ...big, descendants: subagents.slice(0, GROUP_MIN).map((k) => tree(k, [tree(node(`${k.id}c`, { kind: 'child', label: 'title' }))])) };
    expect(layoutTrace(parents).nodes.filter((n) => n.data.kind === 'group')).toEqual([]);
  });

  it('names a group by its agents, most first, and says one or many', () => {
    expect(groupSummary('subagent', [node('a', { label: 'runSubagent-Plan' })])).toBe('1 subagent: Plan ×1');
    expect(groupSummary('helper', [node('a', { label: 'title' }), node('b', { label: 'summarize' }), node('c', { label: 'title' })])).toBe('3 helper sessions: title ×2, summarize ×1');
  });
});
