import type Database from 'better-sqlite3';
import { loadRaw } from '../ingest/process-line';

/** Reads archived lines' text by line id (= events.id). The one place that knows how the archive stores them. */
export interface RawLineReader {
  text(id: number): string | null;
  texts(ids: number[]): Map<number, string>;
  /** the line parsed; null when missing or (for a bad line) not JSON */
  json(id: number): Record<string, unknown> | null;
}

const readers = new WeakMap<Database.Database, RawLineReader>();

export function rawLines(db: Database.Database): RawLineReader {
  let r = readers.get(db);
  if (!r) {
    r = makeReader(db);
    readers.set(db, r);
  }
  return r;
}

function makeReader(db: Database.Database): RawLineReader {
  const one = db.prepare('SELECT raw, compressed FROM lines WHERE id = ?');
  const many = db.prepare('SELECT id, raw, compressed FROM lines WHERE id IN (SELECT value FROM json_each(?))');
  const reader: RawLineReader = {
    text(id) {
      const row = one.get(id) as { raw: Buffer; compressed: number } | undefined;
      return row ? loadRaw(row.raw, row.compressed) : null;
    },
    texts(ids) {
      const out = new Map<number, string>();
      if (ids.length === 0) return out;
      for (const row of many.all(JSON.stringify(ids)) as { id: number; raw: Buffer; compressed: number }[]) out.set(row.id, loadRaw(row.raw, row.compressed));
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
