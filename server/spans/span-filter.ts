import type { SpanView } from '../../shared/api';
import type { SpanFilter } from './visible-rows';

/** True when the view narrows the tree (anything but folding). */
export function hasFilter(view: SpanView): boolean {
  return (
    (view.type !== undefined && view.type.length > 0) ||
    view.status !== undefined ||
    (view.minDur !== undefined && view.minDur > 0) ||
    !!view.model ||
    !!view.tool ||
    normalizeQuery(view.q) !== ''
  );
}

/** The text filter as matched: whitespace folded (as the search index folds it), lower case. */
export function normalizeQuery(q: string | undefined): string {
  return (q ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * The in-session filter as a predicate: every given criterion must hold. Text matches the event's name, tool
 * or model, or is among `textMatches` (events whose indexed text contains it, from the search index).
 */
export function spanFilter(view: SpanView, textMatches: ReadonlySet<number> | null): SpanFilter | null {
  if (!hasFilter(view)) return null;
  const types = view.type && view.type.length > 0 ? new Set(view.type) : null;
  const wantError = view.status === undefined ? null : view.status === 'error' ? 1 : 0;
  const minDur = view.minDur ?? 0;
  const model = view.model ? view.model.toLowerCase() : null;
  const tool = view.tool ? view.tool.toLowerCase() : null;
  const q = normalizeQuery(view.q);
  // Columns, not tree.entry(i): a filter runs over every node of a 254k-event tree.
  return (tree, i) => {
    if (types && !types.has(tree.type(i))) return false;
    if (wantError !== null && tree.status(i) !== wantError) return false;
    if (tree.dur(i) < minDur) return false;
    if (model !== null && tree.model(i)?.toLowerCase() !== model) return false;
    if (tool !== null && tree.tool(i)?.toLowerCase() !== tool) return false;
    if (q !== '') {
      if (textMatches?.has(tree.id(i))) return true;
      return tree.name(i).toLowerCase().includes(q) || (tree.tool(i)?.toLowerCase().includes(q) ?? false) || (tree.model(i)?.toLowerCase().includes(q) ?? false);
    }
    return true;
  };
}
