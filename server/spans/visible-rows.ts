import type { SpanNode, SpanTree } from './span-tree';

export type SpanFilter = (node: SpanNode, index: number) => boolean;

export interface VisibleRows {
  /** pre-order indices of the visible nodes, in order */
  rows: Int32Array;
  /** per node: 1 when it matches the filter itself; null without a filter */
  match: Uint8Array | null;
  /** nodes matching the filter (visible or folded away); null without a filter */
  matched: number | null;
}

/**
 * The rows a tree shows with some branches folded (`collapsed` holds event ids) and an optional filter. A
 * filter keeps each match and its ancestors, so a match never loses its context. O(n): one backward pass
 * marks what to keep, one forward pass skips folded and unkept subtrees whole (nodes[i+1..i+size]).
 */
export function visibleRows(tree: SpanTree, collapsed: ReadonlySet<number>, filter: SpanFilter | null = null): VisibleRows {
  const { nodes } = tree;
  const n = nodes.length;
  let keep: Uint8Array | null = null;
  let match: Uint8Array | null = null;
  let matched: number | null = null;
  if (filter) {
    keep = new Uint8Array(n);
    match = new Uint8Array(n);
    matched = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (filter(nodes[i], i)) {
        match[i] = 1;
        keep[i] = 1;
        matched++;
      }
      if (keep[i] && nodes[i].parent >= 0) keep[nodes[i].parent] = 1;
    }
  }
  const rows = new Int32Array(n);
  let count = 0;
  let i = 0;
  while (i < n) {
    if (keep && !keep[i]) {
      i += nodes[i].size + 1;
      continue;
    }
    rows[count++] = i;
    i += collapsed.has(nodes[i].entry.id) ? nodes[i].size + 1 : 1;
  }
  return { rows: rows.slice(0, count), match, matched };
}

/**
 * The fold state: in 'default' mode the child-session branches that have children start folded and
 * `toggled` flips ids from that default; in 'none' mode nothing starts folded and `toggled` lists the folds; in
 * 'all' mode every branch starts folded (one row per request) and `toggled` lists the ids opened.
 * While a filter is on, the default folds are lifted (a match inside a subagent must show) and only the
 * folds the user made stay.
 */
export function collapsedSet(tree: SpanTree, fold: 'default' | 'none' | 'all', toggled: readonly number[] = [], filtering = false): Set<number> {
  const defaults = new Set<number>();
  if (fold === 'default') {
    for (const node of tree.nodes) if (node.childBranch && node.childCount > 0) defaults.add(node.entry.id);
  } else if (fold === 'all') {
    for (const node of tree.nodes) if (node.childCount > 0) defaults.add(node.entry.id);
  }
  if (filtering) return new Set(toggled.filter((id) => !defaults.has(id)));
  for (const id of toggled) {
    if (defaults.has(id)) defaults.delete(id);
    else defaults.add(id);
  }
  return defaults;
}

/** Unfolds the ancestors of node `i` in `collapsed` (mutated); returns the event ids it opened. */
export function openAncestors(tree: SpanTree, i: number, collapsed: Set<number>): number[] {
  const opened: number[] = [];
  for (let p = tree.nodes[i]?.parent ?? -1; p >= 0; p = tree.nodes[p].parent) {
    const id = tree.nodes[p].entry.id;
    if (collapsed.delete(id)) opened.push(id);
  }
  return opened;
}
