import type { LineageNode, LineageTree, LineageTreeNode } from '../../../../shared/api';

export type ForestRow =
  | { kind: 'tree'; key: string; tree: LineageTree }
  | {
      kind: 'session';
      key: string;
      node: LineageNode;
      depth: number;
      /** for each level between the root and this row, whether a guide line continues through it */
      guides: boolean[];
      last: boolean;
      unresolvedParentId: string | null;
    }
  | { kind: 'more'; key: string; parentId: string; count: number; depth: number; guides: boolean[] };

type Pending =
  | { type: 'node'; node: LineageTreeNode; depth: number; guides: boolean[]; last: boolean }
  | { type: 'more'; parentId: string; count: number; depth: number; guides: boolean[] };

/**
 * The forest as flat rows for a virtual list: per tree a heading row, then its sessions in pre-order with
 * their depth and tree guides. Iterative, so a deep chain cannot overflow the stack.
 */
export function forestRows(trees: readonly LineageTree[]): ForestRow[] {
  const rows: ForestRow[] = [];
  for (const tree of trees) {
    rows.push({ kind: 'tree', key: `tree:${tree.root.id}`, tree });
    const stack: Pending[] = [{ type: 'node', node: tree.root, depth: 0, guides: [], last: true }];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (p.type === 'more') {
        rows.push({ kind: 'more', key: `more:${p.parentId}`, parentId: p.parentId, count: p.count, depth: p.depth, guides: p.guides });
        continue;
      }
      const { descendants, hiddenChildren, ...node } = p.node;
      rows.push({ kind: 'session', key: `s:${node.id}`, node, depth: p.depth, guides: p.guides, last: p.last, unresolvedParentId: p.depth === 0 ? tree.unresolvedParentId : null });
      // the root draws no guide; below it, a guide continues through every level whose node has siblings after it
      const below = p.depth === 0 ? [] : [...p.guides, !p.last];
      // pushed first, so that it comes out after the children
      if (hiddenChildren > 0) stack.push({ type: 'more', parentId: node.id, count: hiddenChildren, depth: p.depth + 1, guides: below });
      for (let i = descendants.length - 1; i >= 0; i--) {
        stack.push({ type: 'node', node: descendants[i], depth: p.depth + 1, guides: below, last: i === descendants.length - 1 && hiddenChildren === 0 });
      }
    }
  }
  return rows;
}
