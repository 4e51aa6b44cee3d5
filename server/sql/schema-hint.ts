import type Database from 'better-sqlite3';
import { nearestName } from '../../shared/nearest-name';
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
  const near = nearestName(name.toLowerCase(), names);
  if (near !== null) return `${message} (did you mean ${near}?)`;
  return kind === 'table' ? `${message} (the tables: ${tables.map((t) => t.name).sort().join(', ')})` : message;
}
