import type Database from 'better-sqlite3';
import { attachSearch } from '../search-index/search-db';
import { SearchThread } from '../search-index/search-thread';
import { Indexer } from './indexer';

/**
 * Indexes the roots to completion without watching: `chronoscope index`, tests and the benchmark. Rejects with
 * SQLite's error when the index turned out to be damaged (the caller moves it aside and starts again). A full
 * disk rolls back the open group and throws (the caller says so and exits) instead of waiting for space.
 * The search text is written by the search thread, as in the server (`searchThread: false` writes it on this
 * thread: the unit tests' fixtures); it resolves once search holds every event too.
 */
export async function indexOnce(db: Database.Database, roots: string[], o: { searchThread?: boolean } = {}): Promise<Indexer> {
  // The connection that indexed sees search too (tests and the bench query it).
  attachSearch(db, db.name);
  let damage: string | null = null;
  // A full disk under the search file ends a one-shot run as it does under the archive (the caller says so), and a
  // damaged page of the archive that only the search thread read (its catch-up) as if the ingest had met it (the
  // caller moves the archive aside and rebuilds it).
  let searchFails: (err: Error) => void = () => {};
  const searchFailed = new Promise<never>((_, reject) => (searchFails = reject));
  searchFailed.catch(() => {}); // awaited only once the archive is done
  const search =
    o.searchThread === false
      ? undefined
      : new SearchThread(db.name, (s) => {
          if (s.archiveDamage !== null) searchFails(Object.assign(new Error(s.archiveDamage), { code: 'SQLITE_CORRUPT' }));
          else if (s.problem?.kind === 'disk_full') searchFails(Object.assign(new Error(s.problem.reason), { code: 'SQLITE_FULL' }));
        });
  const indexer = new Indexer(db, { roots, watch: false, waitForSpace: false, search }, { damaged: (cause) => (damage = cause) });
  try {
    await indexer.start();
    await indexer.whenIdle();
    if (damage !== null) throw Object.assign(new Error(damage), { code: 'SQLITE_CORRUPT' });
    await Promise.race([indexer.whenSearchCaughtUp(), searchFailed]);
  } finally {
    if (search) await search.close();
    else await indexer.stop();
  }
  return indexer;
}
