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

/**
 * Reads complete lines from `fd` starting at `offset`, stopping after about `maxBytes` (so a 100 MB file is
 * processed in bounded batches). A final line without `\n` is never returned: it is a write in progress
 * (FORMAT §4.1) and is read again, whole, once its newline arrives.
 *
 * `into` (a batch ring's slot, batch-ring.ts): the first read goes there and the lines complete in it are views of
 * it, not copies; they are valid until the slot is reused. Without it every line is a copy of its own.
 */
export function readLines(fd: number, offset: number, size: number, maxBytes: number, into?: Buffer): ReadResult {
  const lines: RawLine[] = [];
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
      if (skipping) {
        lines.push({ bytes: Buffer.alloc(0), byteOffset: lineStart, tooLong: true });
      } else {
        const piece = buf.subarray(start, nl);
        const bytes = pendingLen === 0 ? (views ? piece : Buffer.from(piece)) : Buffer.concat([...pending, piece], pendingLen + piece.length);
        lines.push({ bytes, byteOffset: lineStart, tooLong: false });
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
