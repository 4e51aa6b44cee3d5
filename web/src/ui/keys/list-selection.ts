/** j/k and the arrows over a flat list of rows; null when nothing is selected yet. */
export function moveSelection(count: number, current: number | null, key: string): number | null {
  if (count === 0) return null;
  if (key === 'ArrowDown' || key === 'j') return current === null ? 0 : Math.min(count - 1, current + 1);
  if (key === 'ArrowUp' || key === 'k') return current === null ? 0 : Math.max(0, current - 1);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return current;
}

/** Keys typed into a field are the field's: page shortcuts ignore them. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}
