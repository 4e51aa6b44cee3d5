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

/**
 * Something derived from the database, kept per connection while nothing is committed (dbState): `make` builds it
 * again after a commit, or when `outgrown` says the kept one grew past its bound.
 */
export class KeptWhileUnchanged<T> {
  private readonly kept = new WeakMap<Database.Database, { state: string; value: T }>();

  constructor(private readonly make: (db: Database.Database) => T) {}

  get(db: Database.Database, outgrown: (value: T) => boolean = () => false): T {
    const state = dbState(db);
    const k = this.kept.get(db);
    if (k !== undefined && k.state === state && !outgrown(k.value)) return k.value;
    const value = this.make(db);
    this.kept.set(db, { state, value });
    return value;
  }
}
