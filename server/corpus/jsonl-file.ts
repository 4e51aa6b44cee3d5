// A JSONL file being written, with the exact counts the manifest promises (what a line is: FORMAT §4.1 and the
// brief's definitions). Lines are buffered as strings and written in ~1 MB chunks with writeSync, so memory
// stays bounded per open file no matter how large the session gets.
import fs from 'node:fs';
import { formatEntry, type Entry } from './entry';

export type FileKind = 'main' | 'child' | 'legacy';

export interface FileStats {
  path: string;
  sessionId: string;
  kind: FileKind;
  lines: number;
  completeLines: number;
  parseableLines: number;
  badLines: number;
  partialTail: boolean;
  bytes: number;
  slowEvents: number;
  errorEvents: number;
}

const FLUSH_CHARS = 1 << 20;
const SLOW_MS = 5000;

export class JsonlFile {
  /** Run index stamped as `rIdx` on every line written from now on (LVS resume, FORMAT §4.6). */
  rIdx = 0;
  /** Latest end time (ts + dur) of any entry, used for the file's mtime. */
  lastActivity = 0;
  bytes = 0;

  private readonly sidJson: string;
  private readonly fd: number;
  private chunks: string[] = [];
  private pendingChars = 0;
  private events = 0;
  private bad = 0;
  private slow = 0;
  private errors = 0;
  private partial = false;
  private closed = false;

  constructor(
    readonly path: string,
    readonly sessionId: string,
    readonly kind: FileKind,
  ) {
    this.sidJson = JSON.stringify(sessionId);
    this.fd = fs.openSync(path, 'w');
  }

  /** The line `write` would produce, without the newline (used to build a partial tail). */
  format(e: Entry): string {
    return formatEntry(e, this.sidJson, this.rIdx);
  }

  write(e: Entry): void {
    const line = formatEntry(e, this.sidJson, this.rIdx) + '\n';
    this.bytes += Buffer.byteLength(line);
    this.events++;
    if (e.dur > SLOW_MS) this.slow++;
    if (e.status === 'error') this.errors++;
    const end = e.ts + e.dur;
    if (end > this.lastActivity) this.lastActivity = end;
    this.push(line);
  }

  /** A complete line that is not a JSON object (garbage, fragment). Must not contain '\n'. */
  writeBadLine(content: Buffer | string): void {
    const buf = typeof content === 'string' ? Buffer.from(content) : content;
    if (buf.includes(0x0a)) throw new Error('bad line must not contain a newline');
    this.flush();
    this.writeBuffer(Buffer.concat([buf, Buffer.from('\n')]));
    this.bytes += buf.length + 1;
    this.bad++;
  }

  /** Bytes with no terminating newline: a reader must keep them pending, never count them. */
  writePartialTail(content: string): void {
    if (content.includes('\n')) throw new Error('partial tail must not contain a newline');
    this.push(content);
    this.bytes += Buffer.byteLength(content);
    this.partial = true;
  }

  close(): FileStats {
    if (!this.closed) {
      this.flush();
      fs.closeSync(this.fd);
      this.closed = true;
      if (this.lastActivity > 0) {
        const t = new Date(this.lastActivity);
        fs.utimesSync(this.path, t, t);
      }
    }
    const complete = this.events + this.bad;
    return {
      path: this.path,
      sessionId: this.sessionId,
      kind: this.kind,
      lines: complete,
      completeLines: complete,
      parseableLines: this.events,
      badLines: this.bad,
      partialTail: this.partial,
      bytes: this.bytes,
      slowEvents: this.slow,
      errorEvents: this.errors,
    };
  }

  private push(s: string): void {
    if (this.closed) throw new Error(`write after close: ${this.path}`);
    this.chunks.push(s);
    this.pendingChars += s.length;
    if (this.pendingChars >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.chunks.length === 0) return;
    const text = this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    this.chunks = [];
    this.pendingChars = 0;
    this.writeBuffer(Buffer.from(text));
  }

  private writeBuffer(buf: Buffer): void {
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
  }
}
