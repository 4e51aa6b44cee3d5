import type Database from 'better-sqlite3';
import crypto from 'node:crypto';
import { rawLines } from '../db/raw-lines';
import { processLine, LINE_BAD, LINE_FRAGMENT } from './process-line';
import { readLines, type RawLine } from './read-lines';
import type { FileRow } from './store';

export function hashBytes(b: Uint8Array): number {
  return crypto.hash('md5', b, 'buffer').readUIntBE(0, 6);
}

/**
 * Matching a rewritten file against what the archive already holds of it. A rewrite is not always one atomic
 * rename (Copilot's size cap): a file truncated and written back in pieces, or a session folder deleted and
 * copied back (`cp -r` writes each file in several appends), regrows over many reads. Every line of the regrown
 * file is matched, read after read, against the multiset of its archived lines (identical lines may repeat)
 * until the file passes what was archived: the last archived line was matched, or a line the archive does not
 * hold arrived (the writer appends only, so everything after it is new).
 */
export class Reconciliation {
  private constructor(
    private remaining: Map<number, number>,
    /** hash of the last line archived before the rewrite: once matched, the file has passed the archive */
    private lastHash: number | null,
    /** the file's generation and the offset this state stands at: valid only for a row that matches both */
    public generation: number,
    public offset: number,
    public active: boolean,
  ) {}

  /**
   * What to do with the next complete line of the regrown file: 'archived' (skip it), 'fragment' (a cut first
   * line) or 'new' (write it; the reconciliation is over).
   */
  classify(line: RawLine): 'archived' | 'fragment' | 'new' {
    if (!this.active) return 'new';
    const h = hashBytes(line.bytes);
    const seen = this.remaining.get(h) ?? 0;
    if (seen > 0) {
      this.remaining.set(h, seen - 1);
      if (h === this.lastHash && seen === 1) this.active = false;
      return 'archived';
    }
    if (line.byteOffset === 0 && processLine(line).kind === LINE_BAD) return 'fragment';
    this.active = false;
    return 'new';
  }

  /** The archived lines of every generation before the row's, then the part of the file already read replayed. */
  static fromArchive(db: Database.Database, row: FileRow, fd: number): Reconciliation {
    const remaining = new Map<number, number>();
    const raw = rawLines(db);
    const ids = db
      .prepare('SELECT id FROM lines WHERE file_id = ? AND generation < ? AND kind != ? ORDER BY id')
      .pluck()
      .all(row.id, row.generation, LINE_FRAGMENT) as number[];
    let lastHash: number | null = null;
    for (const id of ids) {
      const bytes = raw.bytes(id);
      if (!bytes) continue;
      lastHash = hashBytes(bytes);
      remaining.set(lastHash, (remaining.get(lastHash) ?? 0) + 1);
    }
    const r = new Reconciliation(remaining, lastHash, row.generation, 0, true);
    // After a restart (or a rolled-back group) the state is rebuilt: what was read of this generation was matched.
    while (r.offset < row.offset && r.active) {
      const read = readLines(fd, r.offset, row.offset, 1024 * 1024);
      if (read.lines.length === 0) break;
      for (const line of read.lines) r.classify(line);
      r.offset = read.nextOffset;
    }
    r.offset = row.offset;
    return r;
  }
}

const states = new WeakMap<Database.Database, Map<number, Reconciliation>>();

/** The reconciliation of a file that is reconciling, kept between reads (rebuilt when it no longer matches the row). */
export function reconciliationOf(db: Database.Database, row: FileRow, fd: number): Reconciliation {
  let byFile = states.get(db);
  if (!byFile) states.set(db, (byFile = new Map()));
  const cached = byFile.get(row.id);
  if (cached && cached.generation === row.generation && cached.offset === row.offset && cached.active) return cached;
  const r = Reconciliation.fromArchive(db, row, fd);
  byFile.set(row.id, r);
  return r;
}

/** Forgets a file's reconciliation: it ended, or its batch failed and the state no longer matches the database. */
export function forgetReconciliation(db: Database.Database, fileId: number): void {
  states.get(db)?.delete(fileId);
}
