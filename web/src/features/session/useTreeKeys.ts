import { useEffect, useRef } from 'react';
import type { SpanRow } from '../../../../shared/api';
import { isTypingTarget } from '../../ui/keys/list-selection';
import { useShortcuts } from '../../ui/keys/useShortcuts';
import { keyAction, TREE_KEYS, type KeyAction } from './keyboard';

// Bound below through keyAction, from the same table.
const TREE_HELP = TREE_KEYS.map(({ keys, does }) => ({ keys, does }));

/** What the tree's keys act on: the rows as fetched so far, the selection, and the page's actions. */
export interface TreeKeyContext {
  total: number;
  getRow: (index: number) => SpanRow | undefined;
  selectedIndex: number | null;
  hasSelection: boolean;
  /** rows on screen: where j/k start when nothing is selected */
  onScreen: { start: number; end: number };
  select: (row: SpanRow, index: number) => void;
  toggle: (row: SpanRow) => void;
  setPaneOpen: (open: boolean) => void;
  seekError: (dir: 'next' | 'prev') => void;
  expandAll: () => void;
  collapseAll: () => void;
  focusFilter: () => void;
}

/**
 * Carries out one key action. Returns false when it did nothing (the browser keeps the key). Rows not
 * fetched yet are skipped over rather than guessed: moving onto one waits for its window.
 */
export function runTreeKey(action: KeyAction, c: TreeKeyContext): boolean {
  const index = c.selectedIndex;
  const row = index !== null ? c.getRow(index) : undefined;
  const moveTo = (i: number) => {
    if (c.total === 0) return false;
    const target = Math.max(0, Math.min(c.total - 1, i));
    const r = c.getRow(target);
    if (!r) return false;
    c.select(r, target);
    return true;
  };
  switch (action.type) {
    case 'move':
      return index === null ? moveTo(action.by > 0 ? c.onScreen.start : c.onScreen.end) : moveTo(index + action.by);
    case 'edge':
      return moveTo(action.to === 'first' ? 0 : c.total - 1);
    case 'fold':
      if (!row || index === null) return false;
      if (row.childCount > 0 && !row.collapsed) {
        c.toggle(row);
        return true;
      }
      // Already folded or a leaf: go to the parent, the nearest row above that is less deep.
      for (let i = index - 1; i >= 0; i--) {
        const up = c.getRow(i);
        if (!up) return false;
        if (up.depth < row.depth) return moveTo(i);
      }
      return false;
    case 'unfold':
      if (!row || index === null) return false;
      if (row.collapsed) {
        c.toggle(row);
        return true;
      }
      return row.childCount > 0 ? moveTo(index + 1) : false;
    case 'open':
      if (!c.hasSelection) return false;
      c.setPaneOpen(true);
      return true;
    case 'close':
      c.setPaneOpen(false);
      return true;
    case 'seek-error':
      c.seekError(action.dir);
      return true;
    case 'expand-all':
      c.expandAll();
      return true;
    case 'collapse-all':
      c.collapseAll();
      return true;
    case 'focus-filter':
      c.focusFilter();
      return true;
  }
}

const ACTIVATES = new Set(['BUTTON', 'A', 'SUMMARY']);

/**
 * The session view's keys, on the window, ignored while typing, in the detail pane and on the minimap; off
 * while the tree is not shown (the requests-only view has keys of its own).
 */
export function useTreeKeys(context: TreeKeyContext, enabled = true): void {
  const ref = useRef(context);
  ref.current = context;
  useShortcuts('Session tree', TREE_HELP, enabled);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTypingTarget(e.target)) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.('.event-pane, .minimap, .session-side, dialog, [role="separator"]')) return;
      // Enter on a focused button or link is that control's, not the tree's.
      if (e.key === 'Enter' && target && ACTIVATES.has(target.tagName)) return;
      const action = keyAction(e, 20);
      if (!action) return;
      const c = ref.current;
      const select = (row: SpanRow, index: number) => {
        c.select(row, index);
        // The next key may come before the render that shows this row (two presses in one task): it steps from
        // here, not from the rendered selection. The render puts the page's own context back.
        ref.current = { ...ref.current, selectedIndex: index, hasSelection: true };
      };
      if (runTreeKey(action, { ...c, select })) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
