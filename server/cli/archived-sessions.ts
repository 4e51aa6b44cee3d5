import fs from 'node:fs';
import { indexTotals } from '../counts/index-totals';
import { openReadDb } from '../db/open';

/**
 * How many sessions an index already holds, as the sessions list, /api/health and the backfill banner count them
 * (indexTotals: child logs are not sessions of the list), read without writing to it (it may be served next); 0
 * when there is no index there, or nothing readable as one (a damaged file is then the server's to move aside, as
 * before). With no logs left on the machine, an index that holds sessions is the archive the user keeps (it
 * outlives Copilot's deletions): serve shows it, never the demo corpus in its place.
 */
export function archivedSessions(dbPath: string): number {
  if (!fs.existsSync(dbPath)) return 0;
  let db: ReturnType<typeof openReadDb> | null = null;
  try {
    db = openReadDb(dbPath, { search: false });
    return indexTotals(db).sessions;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}
