import Database from 'better-sqlite3';
import fs from 'node:fs';

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

/**
 * The write-ahead log's size past which the writer checkpoints it itself: a safety net only (SQLite counts it in
 * pages: `pagesFor`). The archive's log is checkpointed from the search thread (`ArchiveCheckpointer`); at 16 MB
 * (4,000 pages of 4 KiB) the writer's COMMIT had copied pages into the database file itself, ~5 s of the ingest
 * thread (the backfill's critical path) in a 1.6 GiB backfill.
 */
export const WRITER_AUTOCHECKPOINT_BYTES = 125 * 1024 * 1024;

/** How often, at most, `ArchiveCheckpointer` checkpoints (after a commit). */
const CHECKPOINT_EVERY_MS = 2000;

/**
 * Checkpoints the archive's write-ahead log from a connection of another thread than the writer's (the search
 * thread, told of every commit), so that the ingest thread spends nothing on it. PASSIVE: it neither waits for nor
 * blocks the writer or a reader; what a reader's snapshot still needs is copied the next time. Any failure (a full
 * disk, a file being replaced) is left to the next commit, and to the writer's own automatic checkpoint.
 */
export class ArchiveCheckpointer {
  private db: Database.Database | null = null;
  /** the inode the connection opened: a file moved aside (damaged) and created again is opened again, never written */
  private ino = 0;
  private last = 0;

  constructor(
    private readonly file: string,
    private readonly everyMs = CHECKPOINT_EVERY_MS,
  ) {}

  /** After the archive committed: checkpoints when the last one is `everyMs` old; true when it ran. */
  afterCommit(now = Date.now()): boolean {
    if (now - this.last < this.everyMs) return false;
    this.last = now;
    try {
      const ino = fs.statSync(this.file).ino;
      if (this.db && ino !== this.ino) this.close();
      if (!this.db) {
        this.db = new Database(this.file, { fileMustExist: true });
        this.ino = ino;
      }
      this.db.pragma('wal_checkpoint(PASSIVE)');
      return true;
    } catch {
      this.close();
      return false;
    }
  }

  close(): void {
    try {
      this.db?.close();
    } catch {
      /* closing after a failure */
    }
    this.db = null;
  }
}
