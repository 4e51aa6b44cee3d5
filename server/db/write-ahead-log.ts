import type Database from 'better-sqlite3';

/**
 * Bytes a write-ahead log keeps on disk once a checkpoint has reset it (`journal_size_limit`). Without a limit
 * the file stays as large as it ever grew: while readers held old snapshots during a backfill the search file's
 * log reached ~140 MB, and stayed that size (issue 19: the index on disk is measured against the logs).
 */
export const WAL_KEEP_BYTES = 16 * 1024 * 1024;

/** How long a fold waits for readers before it gives up and is tried again (the writer's 5 s would stall it). */
const FOLD_WAIT_MS = 250;

/** Folds the log into the database file and truncates it; false when a reader's snapshot kept it (try later). */
export function foldWriteAheadLog(db: Database.Database): boolean {
  if (!db.open || db.inTransaction) return false;
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${FOLD_WAIT_MS}`);
  try {
    const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    return r.busy === 0;
  } catch {
    return false; // SQLITE_BUSY raised instead of reported: the same as busy
  } finally {
    db.pragma(`busy_timeout = ${wait}`);
  }
}

/**
 * Folds the log now, or keeps trying every `everyMs` until a moment with no reader in the way (an idle server
 * commits nothing, so no automatic checkpoint would ever come). Returns a cancel function.
 */
export function foldWriteAheadLogSoon(db: Database.Database, o: { everyMs?: number; tries?: number } = {}): () => void {
  return keepTrying(() => !db.open || foldWriteAheadLog(db), o);
}

/** Runs `attempt` now and then every `everyMs` until it returns true or `tries` ran out; returns a cancel function. */
export function keepTrying(attempt: () => boolean, o: { everyMs?: number; tries?: number } = {}): () => void {
  const everyMs = o.everyMs ?? 2000;
  let left = o.tries ?? 60;
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    timer = undefined;
    if (attempt() || --left <= 0) return;
    timer = setTimeout(run, everyMs);
    timer.unref();
  };
  run();
  return () => clearTimeout(timer);
}
