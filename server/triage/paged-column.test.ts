import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagedFloat64, PagedInt32, PagedUint32, PagedUint8, setPageShiftForTests, SpillFile } from './paged-column';

afterEach(() => {
  setPageShiftForTests(14);
  vi.restoreAllMocks();
});

describe('paged columns', () => {
  it('read back every value exactly, in any order, after their pages went to the file', () => {
    setPageShiftForTests(3); // 8 rows a page
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paged-'));
    const file = new SpillFile(dir);
    const f = new PagedFloat64(file);
    const n = new PagedInt32(file);
    const values = Array.from({ length: 61 }, (_, i) => (i % 7 === 0 ? NaN : i * 1.5 + 2 ** 24 + 1));
    values.forEach((v, i) => (f.push(v), n.push(1000 - i)));
    expect(file.bytes).toBe(7 * 8 * 8 + 7 * 8 * 4);
    // the file is unlinked at once: nothing is left in the folder
    expect(fs.readdirSync(dir)).toEqual([]);
    const order = [60, 0, 59, 8, 7, 33, 1, 56, 55, 12];
    expect(order.map((i) => f.get(i))).toEqual(order.map((i) => values[i]));
    expect(order.map((i) => n.get(i))).toEqual(order.map((i) => 1000 - i));
    expect(Array.from({ length: 61 }, (_, i) => f.get(i))).toEqual(values);
    // the tail and one page read back, not the column
    expect(f.residentBytes()).toBe(2 * 8 * 8);
    file.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('keep a page in memory when the file cannot be written (a full disk, no writable folder), answering the same', () => {
    setPageShiftForTests(2);
    const file = new SpillFile(null);
    (file as unknown as { write: () => number }).write = () => -1;
    const c = new PagedUint8(file);
    for (let i = 0; i < 19; i++) c.push(i);
    expect(Array.from({ length: 19 }, (_, i) => c.get(19 - 1 - i))).toEqual(Array.from({ length: 19 }, (_, i) => 18 - i));
    expect(c.residentBytes()).toBe(4 * 4 + 4);
  });

  it('keep a page in memory when the disk took only part of it (a short write is not a written page)', () => {
    setPageShiftForTests(2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paged-'));
    const file = new SpillFile(dir);
    const c = new PagedUint32(file);
    const real = fs.writeSync;
    // the second page's write lands only its first byte, as a nearly full disk may
    let writes = 0;
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, buf: Uint8Array, off: number, len: number, pos: number) =>
      ++writes === 2 ? real(fd, buf, off, 1, pos) : real(fd, buf, off, len, pos)) as typeof fs.writeSync);
    for (let i = 0; i < 13; i++) c.push(1000 + i);
    expect(writes).toBe(3);
    expect(Array.from({ length: 13 }, (_, i) => c.get(i))).toEqual(Array.from({ length: 13 }, (_, i) => 1000 + i));
    file.close();
    fs.rmSync(dir, { recursive: true });
  });

  it('throw a clear error on a failed or short read, and never answer from a half-overwritten page afterwards', () => {
    setPageShiftForTests(2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paged-'));
    const file = new SpillFile(dir);
    const c = new PagedUint32(file);
    for (let i = 0; i < 13; i++) c.push(1000 + i);
    expect(c.get(0)).toBe(1000); // page 0 read back
    const real = fs.readSync;
    // page 1's read fills the buffer with garbage, then fails
    vi.spyOn(fs, 'readSync').mockImplementationOnce(((fd: number, buf: Uint8Array) => {
      buf.fill(0xff);
      throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
    }) as typeof fs.readSync);
    expect(() => c.get(4)).toThrow(/triage model's page file could not be read.*EIO/);
    expect(file.broken).toBe(true);
    // the buffer the failed read scribbled on is no longer taken for page 0
    expect(c.get(1)).toBe(1001);
    vi.spyOn(fs, 'readSync').mockImplementationOnce(((fd: number, buf: Uint8Array, off: number, len: number, pos: number) => real(fd, buf, off, len - 1, pos)) as typeof fs.readSync);
    expect(() => c.get(5)).toThrow(/short read/);
    file.close();
    fs.rmSync(dir, { recursive: true });
  });
});
