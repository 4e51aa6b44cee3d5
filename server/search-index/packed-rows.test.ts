import { describe, expect, it } from 'vitest';
import { RowPacker, unpackRows } from './packed-rows';

describe('search rows packed for the search thread', () => {
  it('come back exactly, empty strings, surrogate pairs and CJK included, in order', () => {
    const packer = new RowPacker();
    const rows = [
      { id: 7, text: 'retry with backoff', cjk: '', doc: 0 },
      { id: 8, text: '', cjk: '日 志 落 盘', doc: 0 },
      { id: 8, text: 'prompt 😀 text\u0000with a NUL', cjk: '', doc: 3 },
      { id: 2 ** 40, text: '𝒳'.repeat(3), cjk: '重', doc: 0 },
    ];
    for (const r of rows) packer.add(r.id, r.text, r.cjk, r.doc);
    expect(packer.size).toBe(4);
    expect(packer.chars).toBe(rows.reduce((n, r) => n + r.text.length + r.cjk.length, 0));
    const { rows: packed, transfer } = packer.take();
    expect(transfer).toHaveLength(4);
    expect(unpackRows(structuredClone(packed))).toEqual({ ids: rows.map((r) => r.id), texts: rows.map((r) => r.text), cjks: rows.map((r) => r.cjk), docs: rows.map((r) => r.doc) });
    // taken: empty again
    expect([packer.size, packer.chars]).toEqual([0, 0]);
    expect(unpackRows(packer.take().rows)).toEqual({ ids: [], texts: [], cjks: [], docs: [] });
  });

  it('refuse lengths that do not add up to the joined text', () => {
    const packer = new RowPacker();
    packer.add(1, 'abc', '', 0);
    const { rows } = packer.take();
    expect(() => unpackRows({ ...rows, text: 'abcd' })).toThrow(/do not add up \(3 of 4 characters\)/);
  });
});
