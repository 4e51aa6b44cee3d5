import type Database from 'better-sqlite3';
import { LISTED_SESSION } from '../sessions/session-row';

export interface IndexTotals {
  /** IndexedFileCount (shared/counts.ts): log files in the archive */
  files: number;
  /** IndexedCompanionCount: companion files, apart from the log files */
  companions: number;
  /** IndexedSessionCount: the sessions list's total */
  sessions: number;
  /** every event line of every log file: the sum of SessionEventCount over the listed sessions (plus child logs whose parent has no log) */
  events: number;
  badLines: number;
  fragments: number;
}

/** The totals `index` prints, the serve banner prints and /api/health returns: one function, so they cannot differ. */
export function indexTotals(db: Database.Database): IndexTotals {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM files) files, (SELECT count(*) FROM companions) companions,
              (SELECT count(*) FROM sessions s WHERE ${LISTED_SESSION} AND s.is_child = 0) sessions,
              (SELECT coalesce(sum(events), 0) FROM files) events, (SELECT coalesce(sum(bad_lines), 0) FROM files) badLines,
              (SELECT coalesce(sum(fragments), 0) FROM files) fragments`,
    )
    .get() as IndexTotals;
}
