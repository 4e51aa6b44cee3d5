import type Database from 'better-sqlite3';
import { Indexer } from './indexer';

/**
 * Indexes the roots to completion without watching: `chronoscope index`, tests and the benchmark. Rejects with
 * SQLite's error when the index turned out to be damaged (the caller moves it aside and starts again). A full
 * disk rolls back the open group and throws (the caller says so and exits) instead of waiting for space.
 */
export async function indexOnce(db: Database.Database, roots: string[]): Promise<Indexer> {
  let damage: string | null = null;
  const indexer = new Indexer(db, { roots, watch: false, waitForSpace: false }, { damaged: (cause) => (damage = cause) });
  await indexer.start();
  await indexer.whenIdle();
  if (damage !== null) throw Object.assign(new Error(damage), { code: 'SQLITE_CORRUPT' });
  return indexer;
}
