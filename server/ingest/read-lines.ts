import fs from 'node:fs';

/** Lines longer than this are recorded as bad lines without being held in memory whole. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/**
 * One read buffer per thread, reused by every call (lines are copied out of it): a fresh megabyte per call, five
 * calls a file, was a steady churn of malloc'ed memory in the ingest worker (its array buffers were 20–36 MB at the
 * backfill's peaks, issue 19.3), which glibc keeps in the thread's arena once freed.
 */
let readBuffer: Buffer | null = null;

/** Lets this thread's read buffer go (an idle ingest worker, worker.ts); the next read allocates it again. */
export function releaseReadBuffer(): void {
  readBuffer = null;
}

export interface RawLine {
  /** the line's bytes without its `\n`; empty when the line was too long to keep */
  bytes: Buffer;
  byteOffset: number;
  /** set when the line exceeded MAX_LINE_BYTES and was skipped */
  tooLong: boolean;
}

export interface ReadResult {
  lines: RawLine[];
  /** offset just past the last complete line returned: where the next read starts */
  nextOffset: number;
  /** bytes after nextOffset that form an incomplete final line (waiting for its `\n`) */
  partialBytes: number;
  eof: boolean;
}

/** The same read with its lines as a LineTable (readLineTable). */
export interface TableReadResult extends Omit<ReadResult, 'lines'> {
  lines: LineTable;
}

const EMPTY = Buffer.alloc(0);
/** `LineTable.starts` of a line whose bytes are a copy of their own (`copies`), or that was too long to keep */
const COPIED = -1;
const TOO_LONG = -2;

/**
 * Complete lines as numbers: each one's offset in the file and its range of the buffer it was read into (or, for a
 * line that continued past that buffer, a copy of its own). A line's Buffer view and RawLine are made when it is
 * asked for, and die young.
 *
 * Why not RawLine[]: a batch is read while the one before it is written (tail-file.ts), so its lines live through
 * that batch's parse and inserts, long enough to survive two scavenges and be promoted into the old generation;
 * a RawLine and its view are ~150 bytes of heap a line. A sampling heap profile of the ingest worker, 0.25× corpus
 * with the bench's query load, kept only what the scavenges did not free: readLines and readBatch allocated 72 of
 * its 238 MB, the largest share, all garbage that only the heap watch's full collections free (heap-watch.ts says
 * what each of those costs). Three numbers a line in arrays of small integers are ~24 bytes.
 */
export class LineTable {
  private readonly offsets: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private copies: Map<number, Buffer> | null = null;

  /** `views`: the buffer the lines added by addView are ranges of */
  constructor(private readonly views: Buffer | null) {}

  get length(): number {
    return this.offsets.length;
  }

  addView(byteOffset: number, start: number, end: number): void {
    this.offsets.push(byteOffset);
    this.starts.push(start);
    this.ends.push(end);
  }

  addCopy(byteOffset: number, bytes: Buffer): void {
    (this.copies ??= new Map()).set(this.offsets.length, bytes);
    this.offsets.push(byteOffset);
    this.starts.push(COPIED);
    this.ends.push(0);
  }

  addTooLong(byteOffset: number): void {
    this.offsets.push(byteOffset);
    this.starts.push(TOO_LONG);
    this.ends.push(0);
  }

  byteOffsetOf(i: number): number {
    return this.offsets[i];
  }

  lengthOf(i: number): number {
    const start = this.starts[i];
    return start >= 0 ? this.ends[i] - start : start === COPIED ? this.copies!.get(i)!.length : 0;
  }

  /** the line's bytes without its `\n` (a view made at each call); empty when it was too long to keep */
  bytesOf(i: number): Buffer {
    const start = this.starts[i];
    return start >= 0 ? this.views!.subarray(start, this.ends[i]) : start === COPIED ? this.copies!.get(i)! : EMPTY;
  }

  line(i: number): RawLine {
    return { bytes: this.bytesOf(i), byteOffset: this.offsets[i], tooLong: this.starts[i] === TOO_LONG };
  }

  toArray(): RawLine[] {
    return Array.from({ length: this.length }, (_, i) => this.line(i));
  }
}

/**
 * Reads complete lines from `fd` starting at `offset`, stopping after about `maxBytes` (so a 100 MB file is
 * processed in bounded batches). A final line without `\n` is never returned: it is a write in progress
 * (FORMAT §4.1) and is read again, whole, once its newline arrives.
 *
 * `into` (a batch ring's slot, batch-ring.ts): the first read goes there and the lines complete in it are views of
 * it, not copies; they are valid until the slot is reused. Without it every line is a copy of its own.
 */
export function readLines(fd: number, offset: number, size: number, maxBytes: number, into?: Buffer): ReadResult {
  const r = readLineTable(fd, offset, size, maxBytes, into);
  return { ...r, lines: r.lines.toArray() };
}

/** readLines, its lines as a LineTable: what the ingest's batches hold (tail-file.ts). */
export function readLineTable(fd: number, offset: number, size: number, maxBytes: number, into?: Buffer): TableReadResult {
  const lines = new LineTable(into ?? null);
  let pos = offset; // file position of the next byte to read
  let lineStart = offset;
  let pending: Buffer[] = []; // pieces of the current line
  let pendingLen = 0;
  let skipping = false; // inside a line over MAX_LINE_BYTES
  let consumed = 0;
  // Only the first read can go into `into`: a line that continues past it is joined from pieces anyway.
  let views = into !== undefined;
  let buf = into ?? (readBuffer ??= Buffer.allocUnsafeSlow(CHUNK_BYTES));
  while (pos < size) {
    if (views && pos !== offset) {
      views = false;
      buf = readBuffer ??= Buffer.allocUnsafeSlow(CHUNK_BYTES);
    }
    const n = fs.readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n <= 0) break;
    let start = 0;
    for (;;) {
      const nl = buf.indexOf(0x0a, start);
      if (nl === -1 || nl >= n) break;
      if (skipping) lines.addTooLong(lineStart);
      else if (pendingLen === 0 && views) lines.addView(lineStart, start, nl);
      else {
        const piece = buf.subarray(start, nl);
        lines.addCopy(lineStart, pendingLen === 0 ? Buffer.from(piece) : Buffer.concat([...pending, piece], pendingLen + piece.length));
      }
      consumed += pos + nl + 1 - lineStart;
      lineStart = pos + nl + 1;
      pending = [];
      pendingLen = 0;
      skipping = false;
      start = nl + 1;
    }
    if (start < n && !skipping) {
      pendingLen += n - start;
      if (pendingLen > MAX_LINE_BYTES) {
        skipping = true;
        pending = [];
        pendingLen = 0;
      } else {
        pending.push(Buffer.from(buf.subarray(start, n)));
      }
    }
    pos += n;
    if (consumed >= maxBytes) {
      // Enough for one batch: stop at the last complete line; a partial piece is read again next time.
      pos = lineStart;
      break;
    }
  }
  return { lines, nextOffset: lineStart, partialBytes: Math.max(0, pos - lineStart), eof: pos >= size };
}
