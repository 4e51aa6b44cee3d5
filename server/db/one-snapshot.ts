import type Database from 'better-sqlite3';
import { statement } from './statements';

/**
 * Runs `read` in one read transaction of `db`, so that every statement it makes sees the same committed index.
 * Outside a transaction each statement of a connection takes its own snapshot, and the ingest worker commits
 * between them: the sessions list once counted 2 sessions and listed 3, the third committed between its count
 * and its page (CI, server/serve.test.ts). One answer's figures come from one state of the index.
 *
 * BEGIN is deferred: the snapshot is taken at the first statement and held until `read` returns or throws. A
 * `read` that returns a promise has one snapshot for its synchronous part only: no transaction may stay open
 * across an await on a connection that other requests share. Inside a transaction already: `read` runs as it is.
 */
export function inOneSnapshot<T>(db: Database.Database, read: (db: Database.Database) => T): T {
  if (db.inTransaction) return read(db);
  statement(db, 'BEGIN').run();
  let result: T;
  try {
    result = read(db);
  } catch (err) {
    // a failed statement may have ended the transaction already; and the reader's own error (SQLITE_CORRUPT sets
    // off the index's recovery) is the one to pass on, not a second one from ending it
    if (db.inTransaction) {
      try {
        statement(db, 'ROLLBACK').run();
      } catch {
        /* the error below says more */
      }
    }
    throw err;
  }
  if (db.inTransaction) statement(db, 'COMMIT').run();
  return result;
}
