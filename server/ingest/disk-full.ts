// A database that cannot grow (a full volume, a quota) is a pause, not a per-file failure: every batch would
// fail the same way, so the indexer rolls the group back, waits with a growing delay and tries again, until
// space is back. Without this it re-queued the group at once and spun at 100% CPU, dropping one file each time.

/** SQLite's own codes for a write that found no room, and the file system's (ENOSPC, EDQUOT) from any fs call. */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
/** SQLite's I/O codes that a full disk produces too (the WAL or its index could not be extended, a write failed). */
const SQLITE_WRITE_IO = /^SQLITE_IOERR_(WRITE|FSYNC|SHMSIZE|TRUNCATE|SHORT_READ|DIR_FSYNC)$/;

export function isDiskFull(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = String((err as { code?: unknown }).code ?? '');
  return DISK_FULL_CODES.has(code) || SQLITE_WRITE_IO.test(code) || /database or disk is full|no space left on device/i.test(err.message);
}

/** The one sentence health and the CLI show; starts with "disk full: <db path>" so that scripts can match it. */
export function diskFullMessage(dbPath: string, err: unknown): string {
  const why = err instanceof Error ? err.message : String(err);
  return `disk full: ${dbPath} (${why}). Indexing is paused and retries by itself; free space on that volume (or move the index with --db).`;
}

/** Delays between attempts while the disk stays full: 0.5 s doubling to 5 s, so a freed disk resumes within 5 s. */
export const FIRST_RETRY_MS = 500;
export const MAX_RETRY_MS = 5000;

export class RetryBackoff {
  private delay = 0;

  /** The wait before the next attempt. */
  next(): number {
    this.delay = this.delay === 0 ? FIRST_RETRY_MS : Math.min(MAX_RETRY_MS, this.delay * 2);
    return this.delay;
  }

  reset(): void {
    this.delay = 0;
  }

  get waiting(): boolean {
    return this.delay > 0;
  }
}

/** A wait that stop() can cut short, so a paused indexer stops at once. */
export class Sleeper {
  private wakeUp: (() => void) | null = null;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => this.wake(), ms);
      this.wakeUp = () => {
        clearTimeout(t);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}
