import Database from 'better-sqlite3';
import fs from 'node:fs';

/**
 * How many sessions an index already holds, read without writing to it (it may be served next); 0 when there is
 * no index there, or nothing readable as one (a damaged file is then the server's to move aside, as before). With
 * no logs left on the machine, an index that holds sessions is the archive the user keeps (it outlives Copilot's
 * deletions): serve shows it, never the demo corpus in its place.
 */
export function archivedSessions(dbPath: string): number {
  if (!fs.existsSync(dbPath)) return 0;
  let db: Database.Database | null = null;
  try {
    db = new Database(dbPath, { readonly: true, fileMustExist: true });
    return (db.prepare('SELECT count(*) n FROM sessions').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
