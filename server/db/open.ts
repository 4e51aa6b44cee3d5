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
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  db.pragma('wal_autocheckpoint = 4000');
  return db;
}

/** A read-only connection for HTTP handlers and the CLI: the engine itself refuses writes. */
export function openReadDb(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32768');
  return db;
}
