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
  const n = tree.nodes[k];
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
    out.push({ id: tree.nodes[k].entry.id, from: ext[0], to });
    if (out.length >= MAX_PATH) return;
    const chain: [number, number][] = [];
    const children = childrenOf(tree, k);
    let cursor = to;
    for (;;) {
      let best = -1;
      let bestEnd = Number.NEGATIVE_INFINITY;
      for (const c of children) {
        const e = extentOf(tree, c);
        // An instant takes no time. After the first step, only a child that had ended when the step after it
        // began held anything up (Jaeger's rule); the first may run past its parent's end (clock skew): clipped.
        if (!e || e[1] <= e[0] || e[0] >= cursor || (chain.length > 0 && e[1] > cursor)) continue;
        const clipped = Math.min(e[1], cursor);
        if (clipped > bestEnd || (clipped === bestEnd && best >= 0 && e[0] > extentOf(tree, best)![0])) {
          best = c;
          bestEnd = clipped;
        }
      }
      if (best < 0 || bestEnd <= ext[0]) break;
      chain.push([best, bestEnd]);
      cursor = extentOf(tree, best)![0];
      if (cursor <= ext[0]) break;
    }
    // found from the end backwards; the path reads forwards
    for (let j = chain.length - 1; j >= 0 && out.length < MAX_PATH; j--) visit(chain[j][0], chain[j][1]);
  };
  visit(r, root[1]);
  return out;
}

function childrenOf(tree: SpanTree, k: number): number[] {
  const out: number[] = [];
  const n = tree.nodes[k];
  for (let c = k + 1; c <= k + n.size; c += tree.nodes[c].size + 1) out.push(c);
  return out;
}
