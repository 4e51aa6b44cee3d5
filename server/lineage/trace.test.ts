import { describe, expect, it } from 'vitest';
import { LineageCycleError, traceSession, type TraceNode } from './trace';

interface N extends TraceNode {
  title?: string;
}

/** An in-memory index: `[id, parentId, createdAt]` rows; getChildren answers in insertion order on purpose. */
function index(rows: [string, string | null, number | null][]) {
  const byId = new Map<string, N>(rows.map(([id, parentId, createdAt]) => [id, { id, parentId, createdAt }]));
  const getSession = (id: string) => byId.get(id);
  const getChildren = (id: string) => [...byId.values()].filter((n) => n.parentId === id);
  return { getSession, getChildren };
}

const ALL = { depth: 50, limit: 1000 };
/** id (descendants…) as a compact string, to compare tree shapes */
const shape = (nodes: { id: string; descendants: unknown[] }[]): string =>
  nodes.map((n) => (n.descendants.length ? `${n.id}(${shape(n.descendants as never)})` : n.id)).join(' ');

describe('traceSession', () => {
  // sess-root
  // └─ sess-child
  //    └─ sess-grandchild
  const family = index([
    ['sess-root', null, 1],
    ['sess-child', 'sess-root', 2],
    ['sess-grandchild', 'sess-child', 3],
  ]);

  it('runs ancestors from the nearest parent to the farthest, and the chain is complete with its root', () => {
    const t = traceSession(family.getSession, family.getChildren, 'sess-grandchild', ALL)!;
    expect(t.target.id).toBe('sess-grandchild');
    expect(t.ancestors.map((a) => a.id)).toEqual(['sess-child', 'sess-root']);
    expect(t.complete).toBe(true);
    expect(t.complete && t.root.id).toBe('sess-root');
    expect(t).not.toHaveProperty('unresolvedParentId');
    expect(t.descendants).toEqual([]);
  });

  it('gives the descendants of the root as a tree, and the root is the target itself', () => {
    const t = traceSession(family.getSession, family.getChildren, 'sess-root', ALL)!;
    expect(shape(t.descendants)).toBe('sess-child(sess-grandchild)');
    expect(t.ancestors).toEqual([]);
    expect(t.complete && t.root).toBe(t.target);
    expect(t.descendantCount).toBe(2);
    expect(t.truncated).toBeNull();
  });

  it('stops at the first parent not in the index: complete false with unresolvedParentId', () => {
    // lost (not indexed) ← fork ← forkChild
    const idx = index([
      ['fork', 'lost', 10],
      ['forkChild', 'fork', 11],
    ]);
    const t = traceSession(idx.getSession, idx.getChildren, 'forkChild', ALL)!;
    expect(t.complete).toBe(false);
    expect(!t.complete && t.unresolvedParentId).toBe('lost');
    expect(t.ancestors.map((a) => a.id)).toEqual(['fork']);
    expect(t).not.toHaveProperty('root');
  });

  it('reports a cycle naming the sessions in it instead of looping', () => {
    // t → a → b → a
    const idx = index([
      ['t', 'a', 1],
      ['a', 'b', 1],
      ['b', 'a', 1],
    ]);
    expect(() => traceSession(idx.getSession, idx.getChildren, 't', ALL)).toThrowError(LineageCycleError);
    try {
      traceSession(idx.getSession, idx.getChildren, 't', ALL);
    } catch (e) {
      expect((e as LineageCycleError).cycle).toEqual(['a', 'b']);
      expect((e as Error).message).toBe('the parents of these sessions form a cycle: a → b → a');
    }
    // a session that is its own grandparent, traced from inside the loop
    expect(() => traceSession(idx.getSession, idx.getChildren, 'b', ALL)).toThrowError(/b → a → b/);
  });

  it('orders siblings by creation time, then id when times are equal, unknown times last', () => {
    //  p
    //  ├─ a (t=5)   ├─ b (t=5)   ├─ c (t=5)   ← equal times: by id
    //  ├─ early (t=1)            └─ undated (null): last
    const idx = index([
      ['p', null, 0],
      ['undated', 'p', null],
      ['c', 'p', 5],
      ['a', 'p', 5],
      ['b', 'p', 5],
      ['early', 'p', 1],
    ]);
    const t = traceSession(idx.getSession, idx.getChildren, 'p', ALL)!;
    expect(t.descendants.map((d) => d.id)).toEqual(['early', 'a', 'b', 'c', 'undated']);
  });

  it('cuts by depth and by limit breadth first, and says what was left out', () => {
    // r
    // ├─ x1 ── y1 ── z1
    // ├─ x2 ── y2
    // └─ x3
    const idx = index([
      ['r', null, 0],
      ['x1', 'r', 1],
      ['x2', 'r', 2],
      ['x3', 'r', 3],
      ['y1', 'x1', 4],
      ['y2', 'x2', 5],
      ['z1', 'y1', 6],
    ]);
    const deep = traceSession(idx.getSession, idx.getChildren, 'r', { depth: 1, limit: 100 })!;
    expect(shape(deep.descendants)).toBe('x1 x2 x3');
    expect(deep.truncated).toEqual({ byDepth: true, byLimit: false, hiddenChildren: 2 });
    expect(deep.descendants.map((d) => d.hiddenChildren)).toEqual([1, 1, 0]);

    const wide = traceSession(idx.getSession, idx.getChildren, 'r', { depth: 10, limit: 4 })!;
    expect(shape(wide.descendants)).toBe('x1(y1) x2 x3');
    expect(wide.descendantCount).toBe(4);
    expect(wide.truncated).toEqual({ byDepth: false, byLimit: true, hiddenChildren: 2 });

    const none = traceSession(idx.getSession, idx.getChildren, 'r', { depth: 0, limit: 100 })!;
    expect(none.descendants).toEqual([]);
    expect(none.truncated?.hiddenChildren).toBe(3);
  });

  it('answers null for a session it does not know', () => {
    expect(traceSession(family.getSession, family.getChildren, 'nope', ALL)).toBeNull();
  });

  it('walks a 10,000-node tree and a 5,000-long chain without recursion limits', () => {
    const rows: [string, string | null, number][] = [['n0', null, 0]];
    for (let i = 1; i < 10_000; i++) rows.push([`n${i}`, `n${Math.floor((i - 1) / 3)}`, i]);
    const wide = index(rows);
    const kids = new Map<string, N[]>();
    for (const r of rows) if (r[1]) kids.set(r[1], [...(kids.get(r[1]) ?? []), wide.getSession(r[0])!]);
    const t = traceSession(wide.getSession, (id) => kids.get(id) ?? [], 'n0', { depth: 100, limit: 10_000 })!;
    expect(t.descendantCount).toBe(9_999);
    const chain: [string, string | null, number][] = [];
    for (let i = 0; i < 5000; i++) chain.push([`c${i}`, i === 0 ? null : `c${i - 1}`, i]);
    const long = index(chain);
    const up = traceSession(long.getSession, () => [], 'c4999', ALL)!;
    expect(up.ancestors).toHaveLength(4999);
    expect(up.complete && up.root.id).toBe('c0');
  });
});
