import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Append-only numeric columns whose full pages live in a temporary file instead of the heap (issue 19.3: the
 * triage model was ~45 bytes a call in memory, 70 MB at 1.6 GB and linear in the corpus). A column keeps in memory
 * its last, growing page and one page read back (every pass over the model reads rows in ascending order, so one
 * is enough); reading a page back is a pread from the OS page cache (~30 µs for 128 KB), a few per pass.
 *
 * The file is created beside the database on the first full page (small indexes never make one), unlinked at
 * once (a crash leaves nothing behind; the descriptor is all that holds it) and closed when its model is garbage.
 * When it cannot be created or written (a read-only folder, a full disk), the page stays in memory: the model
 * answers the same, it only holds more.
 */

/** rows per page, as a power of two: 2^14 = 16,384 rows, 128 KB of float64 */
let pageShift = 14;

/** Tests page after a handful of rows, so that every pass crosses pages. */
export function setPageShiftForTests(shift: number): void {
  pageShift = shift;
}

export class SpillFile {
  private fd: number | null = null;
  private failed = false;
  private end = 0;
  /** bytes written to the file so far (what the model holds on disk) */
  get bytes(): number {
    return this.end;
  }

  /** `dir`: where to create the file (the OS's temporary folder when it cannot be); false: never (pages stay in memory) */
  constructor(private readonly dir: string | null | false) {}

  /** Writes a page; its offset, or -1 when it could not be written (the caller keeps it). */
  write(page: Uint8Array): number {
    const fd = this.open();
    if (fd === null) return -1;
    try {
      // A nearly full disk may take part of a page without an error: that page is not written.
      if (fs.writeSync(fd, page, 0, page.byteLength, this.end) !== page.byteLength) return -1;
    } catch {
      return -1;
    }
    const at = this.end;
    this.end += page.byteLength;
    return at;
  }

  /** Set by a failed read: the model that owns this file is rebuilt in memory (model.ts `modelOf`). */
  broken = false;

  read(into: Uint8Array, at: number): void {
    let n: number;
    try {
      n = fs.readSync(this.fd as number, into, 0, into.byteLength, at);
    } catch (err) {
      this.broken = true;
      throw new Error(`the triage model's page file could not be read (${err instanceof Error ? err.message : String(err)}); it is rebuilt from the index, try again`);
    }
    if (n !== into.byteLength) {
      this.broken = true;
      throw new Error(`the triage model's page file could not be read (short read: ${n} of ${into.byteLength} bytes); it is rebuilt from the index, try again`);
    }
  }

  /** Forgets every page (the model was reset); the file is reused from its start. */
  clear(): void {
    this.end = 0;
    if (this.fd !== null) fs.ftruncateSync(this.fd, 0);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private open(): number | null {
    if (this.fd !== null || this.failed || this.dir === false) return this.fd;
    for (const dir of [this.dir, os.tmpdir()]) {
      if (dir === null) continue;
      const file = path.join(dir, `.chronoscope-triage-${process.pid}-${Math.random().toString(36).slice(2)}`);
      try {
        this.fd = fs.openSync(file, 'wx+', 0o600);
      } catch {
        continue;
      }
      try {
        fs.unlinkSync(file);
      } catch {
        /* kept until the process ends: harmless */
      }
      return this.fd;
    }
    this.failed = true;
    return null;
  }
}

type Values = Float64Array | Int32Array | Uint32Array | Uint8Array;
interface ValuesClass<T extends Values> {
  new (n: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

export interface PagedColumn {
  readonly length: number;
  get(i: number): number;
  push(v: number): void;
  /** bytes held in memory */
  residentBytes(): number;
}

/**
 * A column class per element type: V8 then sees one array type at every `get`, and keeps the hot loops of the
 * passes as fast as on a plain typed array (a shared class over four array types would make them megamorphic).
 */
function pagedClass<T extends Values>(Values: ValuesClass<T>): new (file: SpillFile) => PagedColumn {
  return class Paged implements PagedColumn {
    length = 0;
    private readonly shift = pageShift;
    private readonly pageRows = 1 << pageShift;
    private tail: T = new Values(Math.min(16, 1 << pageShift));
    private tailStart = 0;
    /** file offset of each full page; -1 for one kept in memory (`kept`) because it could not be written */
    private readonly offsets: number[] = [];
    private readonly kept = new Map<number, T>();
    private readPage = -1;
    private read: T | null = null;

    constructor(private readonly file: SpillFile) {}

    get(i: number): number {
      if (i >= this.tailStart) return this.tail[i - this.tailStart];
      const p = i >>> this.shift;
      if (p !== this.readPage) this.load(p);
      return (this.read as T)[i & (this.pageRows - 1)];
    }

    push(v: number): void {
      let k = this.length - this.tailStart;
      if (k === this.tail.length) {
        if (k === this.pageRows) {
          this.spill();
          k = 0;
        } else {
          const wider = new Values(Math.min(this.pageRows, k * 2));
          wider.set(this.tail);
          this.tail = wider;
        }
      }
      this.tail[k] = v;
      this.length++;
    }

    residentBytes(): number {
      let n = this.tail.byteLength + (this.read !== null && !this.kept.has(this.readPage) ? this.read.byteLength : 0);
      for (const p of this.kept.values()) n += p.byteLength;
      return n;
    }

    private spill(): void {
      const page = this.tail;
      // the page read back last is free to become the next tail, unless it is a kept page itself
      const free = this.read !== null && !this.kept.has(this.readPage) ? this.read : null;
      const at = this.file.write(new Uint8Array(page.buffer, page.byteOffset, page.byteLength));
      this.offsets.push(at);
      this.tailStart += this.pageRows;
      if (at === -1) {
        this.kept.set(this.offsets.length - 1, page);
        this.tail = free ?? new Values(this.pageRows);
        if (free !== null) {
          this.read = null;
          this.readPage = -1;
        }
        return;
      }
      // the full page stays as the read-back page: one page's worth allocated once per column
      this.tail = free ?? new Values(this.pageRows);
      this.read = page;
      this.readPage = this.offsets.length - 1;
    }

    private load(p: number): void {
      const kept = this.kept.get(p);
      if (kept) {
        // a kept page is read in place; the read-back buffer is not needed for it
        this.read = kept;
        this.readPage = p;
        return;
      }
      let buf = this.read;
      if (buf === null || this.kept.has(this.readPage)) buf = new Values(this.pageRows);
      // the buffer is about to be overwritten: until the read succeeds it holds no page
      this.read = null;
      this.readPage = -1;
      this.file.read(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength), this.offsets[p]);
      this.read = buf;
      this.readPage = p;
    }
  };
}

export const PagedFloat64 = pagedClass(Float64Array);
export const PagedInt32 = pagedClass(Int32Array);
export const PagedUint32 = pagedClass(Uint32Array);
export const PagedUint8 = pagedClass(Uint8Array);
