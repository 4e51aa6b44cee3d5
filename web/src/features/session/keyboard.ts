// The session view's keys (issue 4): j/k or arrows to move, ←/→ to fold and unfold, Enter for details,
// [ and ] for the previous/next error, e to expand all, / to filter. Pure, so the mapping is tested.

export type KeyAction =
  | { type: 'move'; by: number }
  | { type: 'fold' }
  | { type: 'unfold' }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'seek-error'; dir: 'next' | 'prev' }
  | { type: 'expand-all' }
  | { type: 'collapse-all' }
  | { type: 'focus-filter' }
  | { type: 'edge'; to: 'first' | 'last' };

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** Every key of the tree, what it does (the `?` overlay lists this table) and the action it maps to. */
export const TREE_KEYS: readonly { keys: readonly string[]; does: string; action: (pageRows: number) => KeyAction }[] = [
  { keys: ['j', 'ArrowDown'], does: 'Next row', action: () => ({ type: 'move', by: 1 }) },
  { keys: ['k', 'ArrowUp'], does: 'Previous row', action: () => ({ type: 'move', by: -1 }) },
  { keys: ['PageDown'], does: 'A page down', action: (n) => ({ type: 'move', by: n }) },
  { keys: ['PageUp'], does: 'A page up', action: (n) => ({ type: 'move', by: -n }) },
  { keys: ['Home'], does: 'First row', action: () => ({ type: 'edge', to: 'first' }) },
  { keys: ['End'], does: 'Last row', action: () => ({ type: 'edge', to: 'last' }) },
  // No h/l aliases: `g h` and `g l` are the shell's go-to shortcuts.
  { keys: ['ArrowLeft'], does: 'Fold, or go to the parent', action: () => ({ type: 'fold' }) },
  { keys: ['ArrowRight'], does: 'Unfold, or go to the first child', action: () => ({ type: 'unfold' }) },
  { keys: ['Enter'], does: 'Show the details of the selected row', action: () => ({ type: 'open' }) },
  { keys: ['Escape'], does: 'Close the details', action: () => ({ type: 'close' }) },
  { keys: ['['], does: 'Previous error', action: () => ({ type: 'seek-error', dir: 'prev' }) },
  { keys: [']'], does: 'Next error', action: () => ({ type: 'seek-error', dir: 'next' }) },
  { keys: ['e'], does: 'Expand all', action: () => ({ type: 'expand-all' }) },
  { keys: ['E'], does: 'Collapse all: one row per request', action: () => ({ type: 'collapse-all' }) },
  { keys: ['/'], does: 'Filter the spans', action: () => ({ type: 'focus-filter' }) },
];

export function keyAction(e: KeyLike, pageRows = 20): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  return TREE_KEYS.find((k) => k.keys.includes(e.key))?.action(pageRows) ?? null;
}

/** Folds flipped from the default, as the spans API takes them (`toggled`): flipping twice is no flip. */
export function toggleFold(toggled: readonly number[], id: number): number[] {
  return toggled.includes(id) ? toggled.filter((x) => x !== id) : [...toggled, id].sort((a, b) => a - b);
}

/** Adds the folds the server opened to reveal an event (they were folded, so they flip). */
export function withOpened(toggled: readonly number[], opened: readonly number[]): number[] {
  let out = [...toggled];
  for (const id of opened) out = toggleFold(out, id);
  return out;
}
