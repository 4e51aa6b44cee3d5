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
  | { type: 'focus-filter' }
  | { type: 'edge'; to: 'first' | 'last' };

export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export function keyAction(e: KeyLike, pageRows = 20): KeyAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'j':
    case 'ArrowDown':
      return { type: 'move', by: 1 };
    case 'k':
    case 'ArrowUp':
      return { type: 'move', by: -1 };
    case 'PageDown':
      return { type: 'move', by: pageRows };
    case 'PageUp':
      return { type: 'move', by: -pageRows };
    case 'Home':
      return { type: 'edge', to: 'first' };
    case 'End':
      return { type: 'edge', to: 'last' };
    // No h/l aliases: `g h` and `g l` are the shell's go-to shortcuts.
    case 'ArrowLeft':
      return { type: 'fold' };
    case 'ArrowRight':
      return { type: 'unfold' };
    case 'Enter':
      return { type: 'open' };
    case 'Escape':
      return { type: 'close' };
    case '[':
      return { type: 'seek-error', dir: 'prev' };
    case ']':
      return { type: 'seek-error', dir: 'next' };
    case 'e':
      return { type: 'expand-all' };
    case '/':
      return { type: 'focus-filter' };
    default:
      return null;
  }
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
