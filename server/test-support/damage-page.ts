import Database from 'better-sqlite3';
import fs from 'node:fs';

/**
 * Damages one b-tree page in the middle of a database file, the way a bad sector or a torn write does: the
 * header (page 1) and the schema stay readable, so opening the file works and only reads of that page fail.
 * The database must be closed (checkpointed into the main file). Returns the page number.
 */
export function damageMiddlePage(dbPath: string, table: string): number {
  const probe = new Database(dbPath, { readonly: true });
  const pages = probe.prepare("SELECT pageno, pgoffset, pgsize FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno").all(table) as {
    pageno: number;
    pgoffset: number;
    pgsize: number;
  }[];
  probe.close();
  if (pages.length < 3) throw new Error(`${table} has ${pages.length} leaf pages: too few to damage one in the middle`);
  const page = pages[Math.floor(pages.length / 2)];
  const fd = fs.openSync(dbPath, 'r+');
  // An invalid page type and cell pointers past the page's end: SQLite reports SQLITE_CORRUPT on reading it.
  fs.writeSync(fd, Buffer.alloc(page.pgsize, 0xee), 0, page.pgsize, page.pgoffset);
  fs.closeSync(fd);
  return page.pageno;
}
