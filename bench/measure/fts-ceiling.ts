import Database from 'better-sqlite3';
import fs from 'node:fs';
import { removeDatabaseFiles } from '../../server/db/open';
import { processLine } from '../../server/ingest/process-line';
import { readLines } from '../../server/ingest/read-lines';

/** Text handed to FTS5 per transaction: what a 5 s backfill group of our indexer holds, roughly. */
const TEXT_PER_TRANSACTION = 32 * 1024 * 1024;

export interface FtsCeiling {
  /** our own read + parse + normalize + searchable-text extraction of every line, nothing stored */
  parseSeconds: number;
  /** inserting that text, and nothing else, into a bare contentless trigram FTS5 table like ours */
  ftsSeconds: number;
  textBytes: number;
  lines: number;
}

/**
 * The part of a backfill no design around SQLite's trigram FTS5 can avoid: the searchable text of every line
 * inserted into a contentless trigram table with the same options as `event_text` (16 MB hash, large
 * transactions), in a database of its own, on one core. Beside it, the time our line processing takes alone.
 * Both run on the same files in the benchmark's process, like the JSON.parse ceiling.
 */
export function ftsCeiling(files: string[], dbFile: string): FtsCeiling {
  removeDatabaseFiles(dbFile);
  const db = new Database(dbFile);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1);
    INSERT INTO t (t, rank) VALUES ('hashsize', 16777216);`);
  const insert = db.prepare('INSERT INTO t (rowid, text) VALUES (?, ?)');
  const flush = db.transaction((texts: string[], firstId: number) => {
    for (let i = 0; i < texts.length; i++) insert.run(firstId + i, texts[i]);
  });
  let parseMs = 0;
  let ftsMs = 0;
  let textBytes = 0;
  let lines = 0;
  let nextId = 1;
  let batch: string[] = [];
  let batchChars = 0;
  const insertBatch = () => {
    const t = performance.now();
    flush(batch, nextId);
    ftsMs += performance.now() - t;
    nextId += batch.length;
    batch = [];
    batchChars = 0;
  };
  for (const file of files) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      continue;
    }
    const size = fs.fstatSync(fd).size;
    let offset = 0;
    for (;;) {
      const t = performance.now();
      const r = readLines(fd, offset, size, 1024 * 1024);
      const texts = r.lines.map((l) => processLine(l).text).filter((x) => x !== '');
      parseMs += performance.now() - t;
      lines += r.lines.length;
      for (const x of texts) {
        batch.push(x);
        batchChars += x.length;
        textBytes += Buffer.byteLength(x);
      }
      if (batchChars >= TEXT_PER_TRANSACTION) insertBatch();
      if (r.eof || r.lines.length === 0) break;
      offset = r.nextOffset;
    }
    fs.closeSync(fd);
  }
  if (batch.length > 0) insertBatch();
  db.close();
  removeDatabaseFiles(dbFile);
  return { parseSeconds: parseMs / 1000, ftsSeconds: ftsMs / 1000, textBytes, lines };
}
