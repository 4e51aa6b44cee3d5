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

/**
 * One checkpoint that waits up to `waitMs` (in SQLite's busy handler) for the readers in its way: 'done', 'busy'
 * (a reader kept it, reported or raised as SQLITE_BUSY) or 'failed' (anything else: a full disk, a damaged file).
 * The connection's own busy timeout is put back after it.
 */
function checkpointWaiting(db: Database.Database, mode: 'RESTART' | 'TRUNCATE', waitMs: number): 'done' | 'busy' | 'failed' {
  const wait = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${waitMs}`);
  try {
    const [r] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number }[];
    return r.busy === 0 ? 'done' : 'busy';
  } catch (err) {
    return (err as { code?: string }).code === 'SQLITE_BUSY' ? 'busy' : 'failed';
  } finally {
    if (db.open) db.pragma(`busy_timeout = ${wait}`);
  }
}

/**
 * Lets the log restart at the next write if it can without waiting: every frame copied and no reader left in the
 * log (a RESTART checkpoint that does not wait); false when a reader's snapshot keeps it, or any failure.
 */
export function logRestartsNow(db: Database.Database): boolean {
  if (!db.open || db.inTransaction) return false;
  return checkpointWaiting(db, 'RESTART', 0) === 'done';
}

/** Folds the log into the database file and truncates it; false when a reader's snapshot kept it (try later). */
export function foldWriteAheadLog(db: Database.Database): boolean {
  if (!db.open || db.inTransaction) return false;
  return checkpointWaiting(db, 'TRUNCATE', FOLD_WAIT_MS) === 'done';
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

/**
 * The archive's log past which the writer lets it restart before its next write (`LogRestart`): twice the size at
 * which the writer's own checkpoint runs, so a log this long means that checkpoint has failed to complete.
 */
export const LONG_LOG_BYTES = 2 * WRITER_AUTOCHECKPOINT_BYTES;

/** The size of a database's write-ahead log file (0 when there is none). */
export function logBytes(file: string): number {
  try {
    return fs.statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

/**
 * Keeps the archive's write-ahead log from growing through a backfill that readers are querying.
 *
 * SQLite writes a log from its beginning again (a restart) only at the first write of a transaction whose snapshot
 * found the log wholly checkpointed, and only when no reader still reads from the log. The writer's own checkpoint
 * runs at its COMMIT once the log passes WRITER_AUTOCHECKPOINT_BYTES, and its next group begins at once: a query
 * that began before the commit and is still running holds a snapshot the checkpoint may not overwrite, or is still
 * reading the log at the next group's first write, and the group appends; then the next, and so on. Under the
 * bench's query load (four requests every ~70 ms) the 1.6 GiB backfill's log grew to ~1 GB before a restart
 * (~150–200 MB without queries); a PASSIVE checkpoint to the log's end before the group did not help (the readers
 * that began before it were still reading at the group's first write). So after a commit that left the log past
 * `longBytes`, the next group first runs a RESTART checkpoint: it copies what is left and waits (`waitMs`, in
 * SQLite's busy handler) until no reader reads from the log, so that the group's first write restarts it; readers
 * that begin meanwhile read the database file. Tried again `tries` times, `waitMs` apart; then left to the next commit.
 */
export class LogRestart {
  private due = false;

  constructor(
    private readonly db: Database.Database,
    private readonly o: { longBytes: number; waitMs: number; tries: number } = { longBytes: LONG_LOG_BYTES, waitMs: 25, tries: 8 },
  ) {}

  /** After a commit: whether the next group must let the log restart first. */
  afterCommit(): void {
    this.due = logBytes(this.db.name) > this.o.longBytes;
  }

  /**
   * Before the next group's first write (outside a transaction): true when the log was checkpointed to its end with
   * no reader left in it, so that this write restarts it; false when it was not due, or readers kept it through every try.
   */
  async beforeWrite(stopped: () => boolean = () => false): Promise<boolean> {
    if (!this.due || this.db.inTransaction) return false;
    this.due = false;
    for (let i = 0; i < this.o.tries && !stopped(); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, this.o.waitMs));
      if (!this.db.open || this.db.inTransaction) return false;
      const outcome = checkpointWaiting(this.db, 'RESTART', this.o.waitMs);
      if (outcome === 'done') return true;
      // 'busy': a reader in the way, try again; 'failed' (a full disk, a damaged file) is met and handled by the writes that follow
      if (outcome === 'failed') return false;
    }
    return false;
  }
}

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
