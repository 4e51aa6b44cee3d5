import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

/** The indexer's connection: the only writer. WAL so that readers never wait for a batch to commit. */
export function openWriteDb(file: string): Database.Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // A crash can lose the last batches but never corrupt the file; the byte offsets commit with the lines
  // they cover, so whatever is lost is simply read again.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // 16 MB: a larger page cache bought no measurable speed on a backfill and cost its size in RSS (target 300 MB).
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  db.pragma('wal_autocheckpoint = 4000');
  return db;
}

/** A read-only connection for HTTP handlers and the CLI: the engine itself refuses writes. */
export function openReadDb(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -16384');
  return db;
}

/** Deletes a database file with its write-ahead log and shared-memory index (a fresh start; tests and the bench). */
export function removeDatabaseFiles(file: string): void {
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(file + ext, { force: true });
}

const CORRUPTION = /malformed|file is not a database|not a database|disk image|database corrupt/i;

export function isCorruption(err: unknown): boolean {
  return err instanceof Error && (CORRUPTION.test(err.message) || /SQLITE_(CORRUPT|NOTADB)/.test(String((err as { code?: string }).code)));
}

/**
 * Opens the index for writing; a corrupt file is moved aside (kept, never deleted: it may be evidence) and a
 * new one is created, to be filled again from the logs. Returns the message to show when that happened.
 */
export function openWriteDbOrRecover(file: string): { db: Database.Database; recovered: string | null } {
  try {
    const db = openWriteDb(file);
    // Cheap enough for a 1 GB index (a full quick_check is not): reading the schema fails on a damaged header.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return { db, recovered: null };
  } catch (err) {
    if (!isCorruption(err)) throw err;
    const aside = `${file}.corrupt-${Date.now()}`;
    fs.renameSync(file, aside);
    for (const ext of ['-wal', '-shm']) fs.rmSync(file + ext, { force: true });
    const db = openWriteDb(file);
    return {
      db,
      recovered: `The index at ${file} was corrupt (${err instanceof Error ? err.message : String(err)}); it was moved to ${aside} and is being rebuilt from the logs.`,
    };
  }
}
