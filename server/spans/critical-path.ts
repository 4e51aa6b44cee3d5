// The critical path of a request: the chain of spans that decided when it ended (Jaeger's definition). From the
// end of a span, the child that finished last before that moment is on the path; the walk goes into it, then
// goes on from that child's start, to the sibling that finished last before it, and so on back to the span's
// start. Time on the path not covered by a child is the span's own. Pure, over the pre-order tree.
import type { CriticalStep } from '../../shared/api';
import type { SpanTree } from './span-tree';

/** A path longer than this is cut (it is drawn as highlighted rows; a few thousand is already a wall of them). */
export const MAX_PATH = 2000;

/** Where a node's work sits in time: its own span and everything under it. */
function extentOf(tree: SpanTree, k: number): [number, number] | null {
  const n = tree.node(k);
  if (n.entry.ts === null) return null;
  return [n.entry.ts, Math.max(n.entry.ts + n.entry.dur, n.subtreeEnd ?? n.entry.ts)];
}

/** The critical path under node `r`, in time order (pre-order), `r` itself first (its step spans its whole extent). */
export function criticalPath(tree: SpanTree, r: number): CriticalStep[] {
  const root = extentOf(tree, r);
  if (!root) return [];
  const out: CriticalStep[] = [];
  // visit(k, to) puts k's step, then the steps of its chain in time order (pre-order: a child's steps follow it).
  const visit = (k: number, to: number) => {
    const ext = extentOf(tree, k)!;
    out.push({ id: tree.id(k), from: ext[0], to });
    if (out.length >= MAX_PATH) return;
    // Children that take time, latest end first (a tie: the later start). The cursor only moves back, so one pass
    // finds the whole chain: a request with thousands of calls stays n log n, not children × chain. An extent
    // covers its subtree, so no child ends after its parent: the first step is simply the child that ended last.
    const children = childrenOf(tree, k)
      .map((c) => ({ c, e: extentOf(tree, c) }))
      .filter((x): x is { c: number; e: [number, number] } => x.e !== null && x.e[1] > x.e[0])
      .sort((a, b) => b.e[1] - a.e[1] || b.e[0] - a.e[0]);
    const chain: [number, number][] = [];
    let cursor = to;
    for (const x of children) {
      if (cursor <= ext[0]) break;
      // After a step, only a child that had ended when that step began held anything up (Jaeger's rule).
      if (x.e[1] > cursor) continue;
      chain.push([x.c, x.e[1]]);
      cursor = x.e[0];
    }
    // Found from the end backwards (chain[0] ended last); the path reads forwards. Over the cap, the steps nearest
    // the end are the ones kept.
    const keep = Math.min(chain.length, MAX_PATH - out.length);
    for (let j = keep - 1; j >= 0 && out.length < MAX_PATH; j--) visit(chain[j][0], chain[j][1]);
  };
  visit(r, root[1]);
  return out;
}

function childrenOf(tree: SpanTree, k: number): number[] {
  const out: number[] = [];
  const n = tree.node(k);
  for (let c = k + 1; c <= k + n.size; c += tree.size[c] + 1) out.push(c);
  return out;
}
