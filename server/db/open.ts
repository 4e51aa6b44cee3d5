import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { isCorruption, lostSessions, moveAside, quickCheck, recordRecovery, recoveryMessage } from './damaged-index';
import { attachSearch, removeSearchFiles, searchDbPath } from '../search-index/search-db';
import { ensureSchema } from './schema';
import { WAL_KEEP_BYTES, WRITER_AUTOCHECKPOINT_BYTES } from './write-ahead-log';
import { pagesFor, usePageSize } from './page-size';

/** Page cache of the writer's connection, in KiB. */
export const WRITE_CACHE_KB = 8192;

/** A --db where no index can be made or opened for writing (a folder in its place, a folder that cannot be made). */
export class IndexOpenError extends Error {
  constructor(file: string, why: string) {
    super(`cannot open the index ${file} for writing (${why}): pass --db FILE, a file in a folder you can write to`);
  }
}

/** The file opened for writing, its folder made first; what stops either is an IndexOpenError naming the file. */
function createOrOpen(file: string): Database.Database {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // mkdir names the path it could not make; the user needs the part of it that is in the way
    const blocking = code === 'ENOTDIR' || code === 'EEXIST' ? fileInTheWay(path.dirname(file)) : null;
    throw new IndexOpenError(file, blocking ? `${blocking} is a file, not a folder` : (err as Error).message);
  }
  try {
    return new Database(file);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CANTOPEN') throw new IndexOpenError(file, (err as Error).message);
    throw err;
  }
}

/** The nearest ancestor of `dir` (itself included) that exists and is not a folder. */
function fileInTheWay(dir: string): string | null {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) {
    try {
      if (!fs.statSync(d).isDirectory()) return d;
    } catch {
      // not there: look further up
    }
  }
  return null;
}

/** The indexer's connection: the only writer. WAL so that readers never wait for a batch to commit. */
export function openWriteDb(file: string): Database.Database {
  const db = createOrOpen(file);
  usePageSize(db); // before anything is written (a file that exists keeps its own)
  db.pragma('journal_mode = WAL');
  // A crash can lose the last batches but never corrupt the file; the byte offsets commit with the lines
  // they cover, so whatever is lost is simply read again.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // 8 MB: a larger page cache bought no measurable speed on a backfill and cost its size in RSS (target 300 MB);
  // 16 MB until the ingest worker's young generation grew from 8 to 24 MB (young-generation.ts) and needed the room.
  db.pragma(`cache_size = -${WRITE_CACHE_KB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma(`wal_autocheckpoint = ${pagesFor(db, WRITER_AUTOCHECKPOINT_BYTES)}`);
  db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`);
  return db;
}

/** Page cache of a read-only connection, in KiB. */
export const READ_CACHE_KB = 4096;

/**
 * A read-only connection for HTTP handlers and the CLI: the engine itself refuses writes. The search file is
 * attached (`o.search`, default true), so `event_text` and `event_cjk` resolve as if they were in the archive;
 * a long-lived connection calls `attachSearch` again to follow a search file that was replaced.
 */
export function openReadDb(file: string, o: { search?: boolean } = {}): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  if (o.search !== false) attachSearch(db, file);
  db.pragma('busy_timeout = 5000');
  // 4 MB, not the writer's 16: there are three of these (main, read worker, forwarder) and the OS page cache
  // holds the file anyway; on the 256 MB bench corpus the query rows' p95 did not change (docs/CONTRIBUTING.md).
  db.pragma(`cache_size = -${READ_CACHE_KB}`);
  return db;
}

/** Deletes a database file with its write-ahead log and shared-memory index (a fresh start; tests and the bench). */
export function removeDatabaseFiles(file: string): void {
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(file + ext, { force: true });
  removeSearchFiles(searchDbPath(file)); // its search file belongs to it
}

/**
 * Opens the index for writing; a damaged file is moved aside (kept, never deleted: it may be evidence) and a new
 * one is created, to be filled again from the logs. Returns the message to show when that happened (it is also
 * kept in the new index: the health page shows it until the index is deleted). `quickCheck` reads every page
 * (30–60 MB/s on a busy 2-core machine, `bench/measure/quick-check.ts`); without it only the header and the schema are read.
 */
export function openWriteDbOrRecover(file: string, o: { quickCheck?: boolean } = {}): { db: Database.Database; recovered: string | null } {
  let db: Database.Database | null = null;
  let cause: string | null = null;
  try {
    db = openWriteDb(file);
    // Reading the schema fails on a damaged header; quick_check finds a damaged page anywhere else.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    cause = o.quickCheck ? quickCheck(db) : null;
  } catch (err) {
    if (!isCorruption(err)) throw err;
    cause = err instanceof Error ? err.message : String(err);
  }
  if (cause === null && db) return { db, recovered: null };
  db?.close();
  return rebuildDamagedIndex(file, cause ?? 'unknown damage');
}

/**
 * Moves the damaged index aside, notes what the rebuild cannot bring back (read from the damaged file) and
 * creates an empty index that remembers why; the caller refills it from the logs.
 */
export function rebuildDamagedIndex(file: string, cause: string): { db: Database.Database; recovered: string } {
  const aside = moveAside(file);
  // The search file belongs to the archive just moved aside: a reader attaching it would find that archive's
  // events under ids the new one gives to others. (The new search thread would discard it too: another archive_id.)
  removeSearchFiles(searchDbPath(file));
  const message = recoveryMessage(file, aside, cause, lostSessions(aside));
  const db = openWriteDb(file);
  ensureSchema(db);
  recordRecovery(db, { fileId: null, path: file, lineNo: null, byteOffset: null, kind: 'corrupt', reason: message, at: Date.now() });
  return { db, recovered: message };
}
