import type { CriticalStep } from '../../../../shared/api';

/**
 * The span to select when stepping along a request's critical path (`path` in time order, the request first):
 * the next or previous step from the selected span, or the first or last step when the selection is off the
 * path. null at either end (nothing to step to).
 */
export function stepAlongPath(path: readonly CriticalStep[], selectedId: number | null, dir: 1 | -1): number | null {
  if (path.length === 0) return null;
  const at = selectedId === null ? -1 : path.findIndex((s) => s.id === selectedId);
  if (at < 0) return (dir > 0 ? path[0] : path[path.length - 1]).id;
  return path[at + dir]?.id ?? null;
}
