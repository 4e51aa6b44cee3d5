import fs from 'node:fs';
import path from 'node:path';
import { deflateChunks, deflateChunksSync, type PackedChunk } from './archive-chunks';
import type { RingSlot } from './batch-ring';
import { lineFormatOf, processLine, LINE_FRAGMENT, type LineFormat, type ProcessedLine } from './process-line';
import { readLineTable, type LineTable } from './read-lines';
import { forgetReconciliation, hashBytes, reconciliationOf, type Reconciliation } from './reconcile';
import type { BatchLines, FileProgress, FileRow, IngestStore } from './store';

/** How many bytes of a file's head identify it; a different head means the file was rewritten. */
const HEAD_BYTES = 1024;
/**
 * Bytes of complete lines read and parsed at a time: bounds memory (4 MB batches peaked at 363 MB RSS on one 118 MB
 * file, 1 MB at 230 MB). A batch's raw lines live until it is written (each line is parsed only as it is written,
 * BatchLines, so its parsed entry dies young). 512 KB lowered the peak a little
 * (256 MB corpus with the query load, runs alternated: 300 / 307 MB against 311 / 323 / 339 MB at 1 MB, no more CPU;
 * 256 KB cost ~6% more CPU). At 512 KB stop-mid-batch.test.ts found a stop between two batches flushing search rows
 * into the closed feed (the indexer's drain now stops there).
 */
export const BATCH_BYTES = 512 * 1024;
/** Bytes read from one file before the indexer turns to its queue (watcher events, messages) again. */
const FILE_TURN_BYTES = 4 * 1024 * 1024;

export interface TailOutcome {
  events: number;
  sessionIds: Set<string>;
  /** true when the file has more complete lines to read (the caller re-queues it) */
  more: boolean;
  rewritten: boolean;
  bytes: number;
}

function headHash(fd: number, size: number): string {
  const len = Math.min(size, HEAD_BYTES);
  const buf = Buffer.alloc(len);
  if (len > 0) fs.readSync(fd, buf, 0, len, 0);
  return `${len}:${hashBytes(buf)}`;
}

/** The head hash over the length recorded with it, to compare a file against what was read before. */
function headHashAt(fd: number, recorded: string | null, size: number): string | null {
  if (recorded === null) return null;
  const len = Number(recorded.split(':')[0]);
  if (len > size) return null;
  const buf = Buffer.alloc(len);
  if (len > 0) fs.readSync(fd, buf, 0, len, 0);
  return `${len}:${hashBytes(buf)}`;
}

export type FileIdentity = Pick<FileRow, 'path' | 'workspace_dir' | 'folder_session_id' | 'session_id' | 'kind' | 'label'>;

/**
 * Brings the archive up to date with one log file. The usual case appends complete lines from the stored
 * offset. A file that shrank, changed inode or changed head was rewritten (Copilot's size cap keeps the newest
 * 60%, FORMAT §4.2–4.3; a truncation in place; a folder deleted and copied back): it starts a new generation
 * read from the start, and its lines are reconciled by content against the archive (reconcile.ts) until the
 * file passes what was archived, however many reads that takes: lines already archived are not written again,
 * new ones are added, dropped ones stay, and an unparseable first line is a fragment of a cut line.
 */
export async function tailFile(
  store: IngestStore,
  identity: FileIdentity,
  maxBytes = FILE_TURN_BYTES,
  /** true once the indexer is stopping: nothing more is written (a batch's deflate is awaited) */
  stopped: () => boolean = () => false,
): Promise<TailOutcome> {
  const outcome: TailOutcome = { events: 0, sessionIds: new Set(), more: false, rewritten: false, bytes: 0 };
  let fd: number;
  try {
    fd = fs.openSync(identity.path, 'r');
  } catch (err) {
    const row = store.fileByPath(identity.path);
    const code = (err as NodeJS.ErrnoException).code;
    if (row && (code === 'ENOENT' || code === 'ENOTDIR')) store.markFileDeleted(row.id, row.session_id);
    else if (row) store.setFileError(row.id, `cannot open: ${code ?? String(err)}`);
    throw err;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${identity.path} is not a regular file`), { code: 'EISDIR' });
    let row = store.fileByPath(identity.path) ?? store.createFile(identity);
    const size = stat.size;
    const sameFile = row.ino === null || (row.ino === stat.ino && row.dev === stat.dev);
    const headNow = headHashAt(fd, row.head_hash, size);
    const rewritten =
      row.ino !== null &&
      (!sameFile || size < row.offset || headNow !== row.head_hash || (row.deleted_at !== null && row.offset > 0));
    if (rewritten) {
      outcome.rewritten = true;
      forgetReconciliation(store.db, row.id);
      row = { ...row, generation: row.generation + 1, offset: 0, next_line: 1, reconciling: 1 };
    } else if (size === row.offset && row.ino !== null) {
      return outcome;
    }
    const reconciliation = row.reconciling ? reconciliationOf(store.db, row, fd) : null;
    let offset = row.offset;
    let nextLine = row.next_line;
    let wrote = false;
    const format = lineFormatOf(row.kind);
    let next: ReadBatch | null = readBatch(fd, offset, size, format, nextLine, reconciliation, false, store.batchRing.next());
    while (next !== null) {
      const batch = next;
      next = null;
      if (batch.lines.length === 0) break;
      const pooled = batch.chunks === null ? undefined : await batch.chunks;
      // Stopped meanwhile: the connection may be closed; the open group is rolled back and read again next time.
      if (stopped()) return { ...outcome, more: true };
      const batchBytes = batch.nextOffset - offset;
      // The next batch is read and its deflate started now, to run on the pool while this one is parsed and written.
      // Not while reconciling: classifying its lines consumes the reconciliation's state before this batch commits.
      if (!batch.eof && outcome.bytes + batchBytes < maxBytes && reconciliation === null) {
        next = readBatch(fd, batch.nextOffset, size, format, nextLine + batch.lines.length, null, true, store.batchRing.next());
      }
      // A batch not read ahead is deflated here, on this thread (while the pool deflates the one just read ahead):
      // nothing would overlap a wait for the pool.
      const deflated = pooled ?? deflateChunksSync(batch.kept, batch.slot.chunks);
      row = adoptSessionId(store, row, batch.kept);
      const progress = progressOf(fd, stat, batch.nextOffset, row.generation, nextLine + batch.lines.length, reconciliation?.active ?? false);
      let w;
      try {
        w = store.writeBatch(row, batch.kept, progress, batch.kept.lineNos(), deflated);
      } catch (err) {
        forgetReconciliation(store.db, row.id);
        throw err;
      }
      wrote = true;
      if (reconciliation) reconciliation.offset = batch.nextOffset;
      outcome.events += w.events;
      for (const s of w.sessionIds) outcome.sessionIds.add(s);
      outcome.bytes += batchBytes;
      offset = batch.nextOffset;
      nextLine += batch.lines.length;
      if (batch.eof || outcome.bytes >= maxBytes) break;
      next ??= readBatch(fd, offset, size, format, nextLine, reconciliation, false, store.batchRing.next());
    }
    if (reconciliation && !reconciliation.active) forgetReconciliation(store.db, row.id);
    if (!wrote && (row.ino === null || rewritten)) {
      // An empty (or partial-only) new or rewritten file: record its identity (and generation) so that a later
      // rewrite is recognised and its regrowth is reconciled.
      store.writeBatch(row, [], progressOf(fd, stat, row.offset, row.generation, row.next_line, row.reconciling === 1), []);
    }
    outcome.more = offset < size && readLinesWouldProgress(fd, offset, size);
    return outcome;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The lines of a batch to write: every line read, or, while a regrown file is reconciled, those not already
 * archived (by index, some marked as a fragment: a first line cut by the rewrite). Numbers, not an object a line:
 * a batch read ahead lives through the writing of the one before it (read-lines.ts, LineTable, says why).
 */
class KeptLines implements BatchLines {
  constructor(
    private readonly table: LineTable,
    private readonly format: LineFormat,
    private readonly firstLineNo: number,
    /** indexes into `table`; null: all of them */
    private readonly kept: number[] | null = null,
    private readonly fragments: Set<number> | null = null,
  ) {}

  get length(): number {
    return this.kept === null ? this.table.length : this.kept.length;
  }

  private at(i: number): number {
    return this.kept === null ? i : this.kept[i];
  }

  lengthOf(i: number): number {
    return this.table.lengthOf(this.at(i));
  }

  bytesOf(i: number): Buffer {
    return this.table.bytesOf(this.at(i));
  }

  /** (BatchLines) processed only when it is written, so that its parsed entry dies young */
  processed(i: number): ProcessedLine {
    const p = processLine(this.table.line(this.at(i)), this.format);
    return this.fragments?.has(i) ? { ...p, kind: LINE_FRAGMENT, reason: `first line cut by a rewrite (${p.reason})` } : p;
  }

  /** the kept lines' physical line numbers in the file */
  lineNos(): number[] {
    return Array.from({ length: this.length }, (_, i) => this.firstLineNo + this.at(i));
  }
}

/**
 * One batch of complete lines, those to write (not already archived), and their deflate under way on the pool
 * (null: deflated on this thread when the batch is written). Its lines and chunks live in `slot` (batch-ring.ts).
 */
interface ReadBatch {
  lines: LineTable;
  kept: KeptLines;
  nextOffset: number;
  eof: boolean;
  chunks: Promise<PackedChunk[]> | null;
  slot: RingSlot;
}

/**
 * `ahead`: the batch is read while the one before it is written, and its deflate runs on the pool meanwhile.
 * Otherwise (a turn's first batch, one read after a reconciled batch) nothing would overlap it: it is deflated on
 * this thread. Awaiting the pool there was 11% of a backfill's wall time (27,000 files: a thread woken on the busy
 * second core, then the event loop), deflating on the thread 1.5% (~340 MB/s at level 3).
 */
function readBatch(fd: number, offset: number, size: number, format: LineFormat, firstLineNo: number, reconciliation: Reconciliation | null, ahead: boolean, slot: RingSlot): ReadBatch {
  const r = readLineTable(fd, offset, size, BATCH_BYTES, slot.lines);
  const kept = reconciliation ? reconciledLines(r.lines, format, firstLineNo, reconciliation) : new KeptLines(r.lines, format, firstLineNo);
  const chunks = ahead ? deflateChunks(kept, slot.chunks) : null;
  // A batch read ahead is dropped when the file's turn ends early (a stop, a failed write): its deflate's
  // failure must not surface as an unhandled rejection. Awaiting `chunks` still throws it.
  chunks?.catch(() => {});
  return { lines: r.lines, kept, nextOffset: r.nextOffset, eof: r.eof, chunks, slot };
}

/** The lines a reconciliation keeps: those not archived already, a cut first line marked as a fragment. */
function reconciledLines(table: LineTable, format: LineFormat, firstLineNo: number, reconciliation: Reconciliation): KeptLines {
  const indexes: number[] = [];
  const fragments = new Set<number>();
  for (let i = 0; i < table.length; i++) {
    const verdict = reconciliation.classify(table.line(i));
    if (verdict === 'fragment') fragments.add(indexes.length);
    if (verdict !== 'archived') indexes.push(i);
  }
  return new KeptLines(table, format, firstLineNo, indexes, fragments);
}

function readLinesWouldProgress(fd: number, offset: number, size: number): boolean {
  return readLineTable(fd, offset, size, 1).lines.length > 0;
}

function progressOf(fd: number, stat: fs.Stats, offset: number, generation: number, nextLine: number, reconciling: boolean): FileProgress {
  return { dev: stat.dev, ino: stat.ino, size: stat.size, mtime: Math.floor(stat.mtimeMs), offset, headHash: headHash(fd, stat.size), generation, nextLine, reconciling };
}

/**
 * A child file's session is the `sid` its lines carry; the name only gives a guess (labels may end in
 * something that looks like an id). Adopted on the first batch, before anything of the file is written.
 */
function adoptSessionId(store: IngestStore, row: FileRow, lines: BatchLines): FileRow {
  if (row.offset !== 0 || row.generation !== 0 || row.kind === 'main' || row.kind === 'cli') return row;
  let sid: string | null | undefined;
  // Processed here too (writeBatch processes each line again): only up to the first line with a sid, the first line as a rule.
  for (let i = 0; i < lines.length && !sid; i++) sid = lines.processed(i).event?.sid;
  if (!sid || sid === row.session_id) return row;
  // The name is `<label>-<sid>.jsonl`: with the real id known, the label is what precedes it.
  const base = path.basename(row.path, '.jsonl');
  const label = row.kind === 'child' && base.endsWith(`-${sid}`) ? base.slice(0, -(sid.length + 1)) : row.label;
  store.db.prepare('UPDATE files SET session_id = ?, label = ? WHERE id = ?').run(sid, label, row.id);
  return { ...row, session_id: sid, label };
}
