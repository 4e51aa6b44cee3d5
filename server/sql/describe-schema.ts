import type Database from 'better-sqlite3';
import type { SqlTableInfo } from '../../shared/api';

/** Chronicle's tables (FORMAT §5.2–5.3), listed first: its documented queries run on them unchanged. */
export const CHRONICLE_TABLES = ['sessions', 'turns', 'checkpoints', 'session_files', 'session_refs', 'search_index'];

/**
 * Tables, views and virtual tables of the index with their columns, for the console's schema pane. FTS shadow
 * tables (`x_data`, `x_idx`, …) and SQLite's own are left out: `pragma_table_list` tells them apart.
 */
export function describeSchema(db: Database.Database): SqlTableInfo[] {
  const tables = db
    .prepare("SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'view', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
    .all() as { name: string; type: 'table' | 'view' | 'virtual' }[];
  const columnsOf = db.prepare('SELECT name, type, pk, "notnull" AS not_null FROM pragma_table_info(?) ORDER BY cid');
  const rank = (name: string) => {
    const i = CHRONICLE_TABLES.indexOf(name);
    return i === -1 ? CHRONICLE_TABLES.length : i;
  };
  return tables
    .map((t) => ({
      name: t.name,
      type: t.type,
      chronicle: CHRONICLE_TABLES.includes(t.name),
      columns: (columnsOf.all(t.name) as { name: string; type: string; pk: number; not_null: number }[]).map((c) => ({
        name: c.name,
        type: c.type,
        pk: c.pk > 0,
        notNull: c.not_null === 1,
      })),
    }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}
