import type { SpanTree } from './span-tree';

/** whether node `index` of the tree passes */
export type SpanFilter = (tree: SpanTree, index: number) => boolean;

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
  const { parent, size } = tree;
  const n = tree.length;
  let keep: Uint8Array | null = null;
  let match: Uint8Array | null = null;
  let matched: number | null = null;
  if (filter) {
    keep = new Uint8Array(n);
    match = new Uint8Array(n);
    matched = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (filter(tree, i)) {
        match[i] = 1;
        keep[i] = 1;
        matched++;
      }
      if (keep[i] && parent[i] >= 0) keep[parent[i]] = 1;
    }
  }
  const rows = new Int32Array(n);
  let count = 0;
  let i = 0;
  while (i < n) {
    if (keep && !keep[i]) {
      i += size[i] + 1;
      continue;
    }
    rows[count++] = i;
    i += size[i] > 0 && collapsed.has(tree.id(i)) ? size[i] + 1 : 1;
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
    for (let i = 0; i < tree.length; i++) if (tree.childBranch(i) && tree.childCount[i] > 0) defaults.add(tree.id(i));
  } else if (fold === 'all') {
    for (let i = 0; i < tree.length; i++) if (tree.childCount[i] > 0) defaults.add(tree.id(i));
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
  for (let p = i >= 0 && i < tree.length ? tree.parent[i] : -1; p >= 0; p = tree.parent[p]) {
    const id = tree.id(p);
    if (collapsed.delete(id)) opened.push(id);
  }
  return opened;
}
