import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PagedFloat64, PagedInt32, PagedUint8, setPageShiftForTests, SpillFile } from './paged-column';

afterEach(() => setPageShiftForTests(14));

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
});
