// JSON from a log line can nest as deep as the line is long: 5,000 levels parse (JSON.parse does not recurse)
// but overflow the stack of anything that walks them recursively, JSON.stringify included. The API and the
// UI's JSON tree show a value down to MAX_JSON_DEPTH levels and mark what lies below; the raw line keeps it all.

/** Levels of nesting shown; real events nest under ten (inputMessages → parts → content). */
export const MAX_JSON_DEPTH = 100;

/** What stands in for an object or array nested deeper than `max` levels. */
export function tooDeepMarker(max: number): string {
  return `[nested deeper than ${max} levels: see the raw line]`;
}

/**
 * `value` with every non-empty object or array at depth `max` (the value itself is depth 0) replaced by the
 * marker. Recursion stops at `max`, so the walk itself cannot overflow; parts that need no change are shared.
 */
export function boundJsonDepth(value: unknown, max = MAX_JSON_DEPTH, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= max) return isEmpty(value) ? value : tooDeepMarker(max);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const b = boundJsonDepth(value[i], max, depth + 1);
      if (b !== value[i]) (out ??= value.slice())[i] = b;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const b = boundJsonDepth(v, max, depth + 1);
    if (b !== v) {
      out ??= { ...(value as Record<string, unknown>) };
      setOwn(out, k, b);
    }
  }
  return out ?? value;
}

/** `o[k] = v` that stays an own property when k is `__proto__` (JSON.parse makes it one; assignment would not). */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function isEmpty(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0;
  for (const _ in value) return false;
  return true;
}
