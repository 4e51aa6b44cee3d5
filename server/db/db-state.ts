import type Database from 'better-sqlite3';
import { plucked } from './statements';

/**
 * A token that changes whenever anything was committed to the database: by another connection (the ingest
 * worker: PRAGMA data_version) or by this one (total_changes(): tests and the CLI index and read on one
 * connection). While it stays the same, whatever a reader derived from the database is still current.
 */
export function dbState(db: Database.Database): string {
  // prepared once (db.pragma() prepares on every call): this runs on every cached GET answer
  return `${plucked(db, 'PRAGMA data_version').get()}:${plucked(db, 'SELECT total_changes()').get()}`;
}
