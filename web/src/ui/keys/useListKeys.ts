import { useEffect, useRef, useState } from 'react';
import { moveSelection } from './list-selection';
import { useShortcuts } from './useShortcuts';

export interface ListKeysOptions {
  /** the group's title in the `?` overlay, e.g. "Slow calls" */
  title: string;
  /** what one row is, for the overlay: "call", "session" */
  noun: string;
  count: number;
  /** Enter on the selected row */
  onOpen: (index: number) => void;
  /** what Enter does, for the overlay */
  opens?: string;
  /** Brings the selected row into view and gives it focus (a virtual list renders it first). */
  reveal?: (index: number) => void;
  /** selection is dropped when this changes (new filters, new query) */
  resetKey?: unknown;
  /** Whether a key pressed on `target` is this list's: a list nested in another's row takes the keys while focus
   * is inside it, and the outer list leaves them (failure groups and their occurrences). Default: every key. */
  accepts?: (target: Element | null) => boolean;
}

const ACTIVATES = new Set(['A', 'BUTTON', 'SUMMARY']);

/** j/k (and ↓/↑) select a row of a list, Enter opens it; listed in the `?` overlay. */
export function useListKeys({ title, noun, count, onOpen, opens, reveal, resetKey, accepts }: ListKeysOptions) {
  const [selected, setSelected] = useState<number | null>(null);
  useEffect(() => setSelected(null), [resetKey]);
  const clamped = selected !== null && selected >= count ? (count > 0 ? count - 1 : null) : selected;
  const current = useRef(clamped);
  current.current = clamped;
  const revealRef = useRef(reveal);
  revealRef.current = reveal;
  const mine = (e: KeyboardEvent) => !accepts || accepts(e.target instanceof Element ? e.target : null);
  const move = (e: KeyboardEvent) => {
    if (count === 0 || !mine(e)) return false;
    const next = moveSelection(count, current.current, e.key);
    // the next key may come before the render that shows this one: it steps from here, not from the rendered row
    current.current = next;
    setSelected(next);
    if (next !== null) revealRef.current?.(next);
  };
  useShortcuts(title, [
    { keys: ['j', 'ArrowDown'], does: `Next ${noun}`, run: move },
    { keys: ['k', 'ArrowUp'], does: `Previous ${noun}`, run: move },
    {
      keys: ['Enter'],
      does: opens ?? `Open the selected ${noun}`,
      run: (e) => {
        if (current.current === null || !mine(e)) return false;
        // Enter on another control (a tab, "Load more") is that control's; rows' own controls carry data-list-row.
        const t = e.target instanceof HTMLElement ? e.target : null;
        if (t && ACTIVATES.has(t.tagName) && !t.hasAttribute('data-list-row')) return false;
        onOpen(current.current);
      },
    },
  ]);
  return { selected: clamped, setSelected };
}
