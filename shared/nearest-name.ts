/**
 * The name meant by one written a little wrong: within `maxEdits` edits (the fewest; the first of a tie), or null.
 * For "did you mean …?" hints (SQL's tables and columns, the command line's options), which only name a close one.
 */
export function nearestName(wanted: string, names: readonly string[], maxEdits = 2): string | null {
  let best: string | null = null;
  let bestDistance = maxEdits + 1;
  for (const n of names) {
    const d = editDistance(wanted, n.toLowerCase());
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * The name meant by a shortened or lengthened one as well: within two edits (nearestName), else a name the written
 * one is the start of or starts with, from 3 characters (`--minimum` → `min`, `tool` → `tool_call`).
 */
export function meantName(wanted: string, names: readonly string[]): string | null {
  const w = wanted.toLowerCase();
  return nearestName(w, names) ?? (w.length >= 3 ? (names.find((n) => w.startsWith(n.toLowerCase()) || n.toLowerCase().startsWith(w)) ?? null) : null);
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
