// A thread that runs PRAGMA quick_check on its own read-only connection and says what it found. quick_check reads
// every page (30–60 MB/s on a busy 2-core machine: 27–56 s for the 1.6 GiB benchmark index), far too long for the
// start-up path or for the ingest worker's or the HTTP server's thread, so it runs here once the server is up.
import { parentPort, workerData } from 'node:worker_threads';
import { isCorruption, quickCheck } from './damaged-index';
import { openReadDb } from './open';
import { reportThreadMemory } from '../memory/thread-memory';

export interface CheckResult {
  /** SQLite's findings when the index is damaged; null when it is sound */
  damage: string | null;
  /** the check itself could not run (a missing file, a busy database): not a verdict on the index */
  error: string | null;
}

const { dbPath } = workerData as { dbPath: string };
reportThreadMemory('check');
let result: CheckResult;
try {
  // The archive alone: a damaged search file is the search thread's to find and replace (search-writer.ts), and
  // must not send the archive aside.
  const db = openReadDb(dbPath, { search: false });
  // quick_check walks each b-tree once: a page cache would only fill with pages it never reads again (16 MB of RSS).
  db.pragma('cache_size = -1024');
  try {
    result = { damage: quickCheck(db), error: null };
  } finally {
    db.close();
  }
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  result = isCorruption(err) ? { damage: message, error: null } : { damage: null, error: message };
}
parentPort?.postMessage(result);
