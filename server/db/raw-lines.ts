import type Database from 'better-sqlite3';
import zlib from 'node:zlib';

/**
 * Reads archived lines by line id (= events.id). The one place that knows how the archive stores them: in
 * deflated chunks of consecutive lines (server/db/schema.ts). Inflated chunks are kept in a small LRU, so reading
 * the lines of one window of the session view, or the snippets of a search page, inflates each chunk once.
 */
export interface RawLineReader {
  bytes(id: number): Buffer | null;
  text(id: number): string | null;
  texts(ids: number[]): Map<number, string>;
  /** the line parsed; null when missing or (for a bad line) not a JSON object */
  json(id: number): Record<string, unknown> | null;
}

const CACHED_CHUNKS = 64;
/** lines kept as written (rememberWrittenLine): a commit group's sessions, a line or two each, up to 4 MB */
const KEPT_WRITTEN = 4096;
const KEPT_WRITTEN_BYTES = 4 * 1024 * 1024;

interface ConnectionReads {
  reader: RawLineReader;
  /** inflated chunks by chunk id, most recently used last */
  chunks: Map<number, Buffer>;
  /** lines this connection wrote and will read back, by line id, oldest first */
  written: Map<number, Buffer>;
  writtenBytes: number;
}
const readers = new WeakMap<Database.Database, ConnectionReads>();

function readsOf(db: Database.Database): ConnectionReads {
  let r = readers.get(db);
  if (!r) {
    const chunks = new Map<number, Buffer>();
    const written = new Map<number, Buffer>();
    r = { reader: makeReader(db, chunks, written), chunks, written, writtenBytes: 0 };
    readers.set(db, r);
  }
  return r;
}

export function rawLines(db: Database.Database): RawLineReader {
  return readsOf(db).reader;
}

const lastLineStatements = new WeakMap<Database.Database, Database.Statement>();

/**
 * The archive's last line id, 0 when it has none: how far it holds lines, the mark the search file is indexed
 * through and the FTS5 merges count in (the indexer's commits, the search thread, archive-text-compaction.ts).
 */
export function lastLineId(db: Database.Database): number {
  let st = lastLineStatements.get(db);
  if (!st) {
    st = db.prepare('SELECT max(id) FROM lines').pluck();
    lastLineStatements.set(db, st);
  }
  return (st.get() as number | null) ?? 0;
}

/**
 * A line the writer has just archived and its session refresh reads back (a session's start line and a Copilot
 * CLI session.shutdown: the CLI facts and the lineage): kept as written, so that reading it back inflates no chunk
 * (a 64 KB chunk for a 1 KB line, two or three times per session in a backfill). The bytes are copied: the
 * caller's may be a view of a reused read buffer. Forgotten once the refresh has run (forgetWrittenLines), and
 * with the chunks after a rollback (forgetArchiveReads).
 */
export function rememberWrittenLine(db: Database.Database, id: number, bytes: Uint8Array): void {
  const r = readsOf(db);
  // Unpooled: Buffer.from would take a small line from an 8 KB pool slab and keep the whole slab alive.
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  copy.set(bytes);
  r.written.set(id, copy);
  r.writtenBytes += bytes.length;
  while (r.written.size > KEPT_WRITTEN || r.writtenBytes > KEPT_WRITTEN_BYTES) {
    const [oldest, b] = r.written.entries().next().value as [number, Buffer];
    r.written.delete(oldest);
    r.writtenBytes -= b.length;
  }
}

/** Drops the lines kept as written: their refresh has read them (indexer.ts, after each refresh of the dirty sessions). */
export function forgetWrittenLines(db: Database.Database): void {
  const r = readers.get(db);
  if (!r) return;
  r.written.clear();
  r.writtenBytes = 0;
}

/**
 * Forgets the connection's inflated chunks and the lines it kept as written: after a rolled-back write a chunk id
 * is given again to other lines (`chunks.id` is a rowid: max + 1), and so is a line id; both caches, keyed by
 * those ids, would answer with the rolled-back bytes. Readers on other connections never see uncommitted chunks;
 * a rebuilt index is another connection.
 */
export function forgetArchiveReads(db: Database.Database): void {
  // cleared, not replaced: the refresh and the CLI linker hold the reader they were made with
  const r = readers.get(db);
  if (!r) return;
  r.chunks.clear();
  forgetWrittenLines(db); // a rolled-back line's id is given again, like its chunk's
}

function makeReader(db: Database.Database, cache: Map<number, Buffer>, written: Map<number, Buffer>): RawLineReader {
  const where = db.prepare('SELECT chunk_id, chunk_pos, length FROM lines WHERE id = ?');
  const wheres = db.prepare('SELECT id, chunk_id, chunk_pos, length FROM lines WHERE id IN (SELECT value FROM json_each(?))');
  const chunk = db.prepare('SELECT data FROM chunks WHERE id = ?');

  function inflated(chunkId: number): Buffer | null {
    const hit = cache.get(chunkId);
    if (hit) {
      cache.delete(chunkId); // re-insert: most recently used last
      cache.set(chunkId, hit);
      return hit;
    }
    const row = chunk.get(chunkId) as { data: Buffer } | undefined;
    if (!row) return null;
    const data = zlib.inflateRawSync(row.data);
    cache.set(chunkId, data);
    if (cache.size > CACHED_CHUNKS) cache.delete(cache.keys().next().value as number);
    return data;
  }

  const slice = (r: { chunk_id: number; chunk_pos: number; length: number }) => inflated(r.chunk_id)?.subarray(r.chunk_pos, r.chunk_pos + r.length) ?? null;

  const reader: RawLineReader = {
    bytes(id) {
      const kept = written.get(id);
      if (kept) return kept;
      const r = where.get(id) as { chunk_id: number; chunk_pos: number; length: number } | undefined;
      return r ? slice(r) : null;
    },
    text(id) {
      return reader.bytes(id)?.toString('utf8') ?? null;
    },
    texts(ids) {
      const out = new Map<number, string>();
      const unread: number[] = [];
      for (const id of ids) {
        const kept = written.get(id);
        if (kept) out.set(id, kept.toString('utf8'));
        else unread.push(id);
      }
      if (unread.length === 0) return out;
      const rows = wheres.all(JSON.stringify(unread)) as { id: number; chunk_id: number; chunk_pos: number; length: number }[];
      rows.sort((a, b) => a.chunk_id - b.chunk_id); // one inflate per chunk
      for (const r of rows) {
        const b = slice(r);
        if (b) out.set(r.id, b.toString('utf8'));
      }
      return out;
    },
    json(id) {
      const t = reader.text(id);
      if (t === null) return null;
      try {
        const v: unknown = JSON.parse(t);
        return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    },
  };
  return reader;
}
