import type Database from 'better-sqlite3';
import { describeSchema } from './describe-schema';

/**
 * SQLite's "no such table" / "no such column" with the name meant when one is close (a letter off, a missing
 * plural: `event`, `nme`), or for a table with none close the tables there are. Any other message is returned
 * as it is.
 */
export function withSchemaHint(db: Database.Database, message: string): string {
  const m = /^no such (table|column): (\S+)$/.exec(message);
  if (!m) return message;
  const [, kind, written] = m;
  const name = written.slice(written.lastIndexOf('.') + 1); // `e.durr`, `main.event`: the name after its qualifier
  const tables = describeSchema(db);
  const names = kind === 'table' ? tables.map((t) => t.name) : [...new Set(tables.flatMap((t) => t.columns.map((c) => c.name)))];
  const near = nearest(name.toLowerCase(), names);
  if (near !== null) return `${message} (did you mean ${near}?)`;
  return kind === 'table' ? `${message} (the tables: ${tables.map((t) => t.name).sort().join(', ')})` : message;
}

/** The name within two edits of `wanted` (the fewest; the first of a tie), or null. */
function nearest(wanted: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const n of names) {
    const d = editDistance(wanted, n.toLowerCase());
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  return best;
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
