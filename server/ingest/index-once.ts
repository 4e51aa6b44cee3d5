import type Database from 'better-sqlite3';
import { Indexer } from './indexer';

/** Indexes the roots to completion without watching: `chronoscope index`, tests and the benchmark. */
export async function indexOnce(db: Database.Database, roots: string[]): Promise<Indexer> {
  const indexer = new Indexer(db, { roots, watch: false });
  await indexer.start();
  await indexer.whenIdle();
  return indexer;
}
