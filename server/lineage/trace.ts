/** The least a trace needs to know of a session. */
export interface TraceNode {
  id: string;
  parentId: string | null;
  createdAt: number | null;
}

export type Tree<N> = N & { descendants: Tree<N>[]; hiddenChildren: number };

export interface TraceLimits {
  /** levels of descendants below the target (0: none) */
  depth: number;
  /** descendants in all */
  limit: number;
}

export type Trace<N> = {
  target: N;
  ancestors: N[];
  descendants: Tree<N>[];
  descendantCount: number;
  truncated: { byDepth: boolean; byLimit: boolean; hiddenChildren: number } | null;
} & ({ complete: true; root: N } | { complete: false; unresolvedParentId: string });

/** The parent links loop. `cycle` names the sessions in the loop, starting with the one met twice. */
export class LineageCycleError extends Error {
  constructor(readonly cycle: string[]) {
    super(`the parents of these sessions form a cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  }
}

/** Guards against a corrupt chain that never ends without repeating (it cannot: ids are finite; belt and braces). */
export const MAX_ANCESTORS = 100_000;

/** Siblings: by creation time (unknown last), then id, so that equal times still give one order. */
export function bySiblingOrder(a: TraceNode, b: TraceNode): number {
  const ta = a.createdAt ?? Number.POSITIVE_INFINITY;
  const tb = b.createdAt ?? Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Where a session came from and everything that branched off it (seed 002's traceSession contract):
 * `ancestors` run from the nearest parent to the farthest; `descendants` are a tree, siblings in
 * `bySiblingOrder`; `complete` with `root` (the top of the chain, the target itself when it has no parent) or
 * `unresolvedParentId` (the first parent not in the index). Descendants are taken breadth first, so a cut by
 * `limit` keeps the nearest levels; each node says how many of its children were left out.
 * Returns null when the target is unknown; throws LineageCycleError when parent links loop.
 */
export function traceSession<N extends TraceNode>(
  getSession: (id: string) => N | undefined,
  getChildren: (id: string) => N[],
  id: string,
  limits: TraceLimits,
  /** told the sessions of each level before their children are asked for, to read them all in one query */
  prefetchChildren?: (ids: string[]) => void,
): Trace<N> | null {
  const target = getSession(id);
  if (!target) return null;

  const chain: string[] = [target.id];
  const seen = new Set(chain);
  const ancestors: N[] = [];
  let unresolvedParentId: string | null = null;
  for (let node: N = target; node.parentId !== null; ) {
    const parentId = node.parentId;
    if (seen.has(parentId)) throw new LineageCycleError(chain.slice(chain.indexOf(parentId)));
    if (ancestors.length >= MAX_ANCESTORS) throw new LineageCycleError(chain.slice(-10));
    const parent = getSession(parentId);
    if (!parent) {
      unresolvedParentId = parentId;
      break;
    }
    seen.add(parentId);
    chain.push(parentId);
    ancestors.push(parent);
    node = parent;
  }

  const top: Tree<N> = { ...target, descendants: [], hiddenChildren: 0 };
  let count = 0;
  let byDepth = false;
  let byLimit = false;
  let hidden = 0;
  let level: Tree<N>[] = [top];
  for (let depth = 1; level.length > 0; depth++) {
    const next: Tree<N>[] = [];
    prefetchChildren?.(level.map((n) => n.id));
    for (const parent of level) {
      const children = getChildren(parent.id).slice().sort(bySiblingOrder);
      if (children.length === 0) continue;
      if (depth > limits.depth || count >= limits.limit) {
        if (depth > limits.depth) byDepth = true;
        else byLimit = true;
        parent.hiddenChildren = children.length;
        hidden += children.length;
        continue;
      }
      for (const child of children) {
        if (seen.has(child.id)) {
          // a child that is also an ancestor or already placed: the links loop (or a session has two parents)
          throw new LineageCycleError(cycleThrough(chain, parent.id, child.id, top));
        }
        if (count >= limits.limit) {
          byLimit = true;
          parent.hiddenChildren++;
          hidden++;
          continue;
        }
        seen.add(child.id);
        const t: Tree<N> = { ...child, descendants: [], hiddenChildren: 0 };
        parent.descendants.push(t);
        next.push(t);
        count++;
      }
    }
    level = next;
  }

  const base = {
    target,
    ancestors,
    descendants: top.descendants,
    descendantCount: count,
    truncated: byDepth || byLimit ? { byDepth, byLimit, hiddenChildren: hidden } : null,
  };
  if (unresolvedParentId !== null) return { ...base, complete: false, unresolvedParentId };
  return { ...base, complete: true, root: ancestors.length > 0 ? ancestors[ancestors.length - 1] : target };
}

/** The loop a repeated child closes: from that child down to the parent that named it again. */
function cycleThrough<N extends TraceNode>(chain: string[], parentId: string, childId: string, top: Tree<N>): string[] {
  const at = chain.indexOf(childId);
  const down = pathTo(top, parentId) ?? [parentId];
  if (at >= 0) return [...chain.slice(0, at + 1).reverse(), ...down.slice(1)];
  const from = down.indexOf(childId);
  return from >= 0 ? down.slice(from) : [childId, parentId];
}

function pathTo<N extends TraceNode>(node: Tree<N>, id: string): string[] | null {
  if (node.id === id) return [node.id];
  for (const c of node.descendants) {
    const p = pathTo(c, id);
    if (p) return [node.id, ...p];
  }
  return null;
}
