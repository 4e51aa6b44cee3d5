import { describe, expect, it } from 'vitest';
import { RowPacker, unpackRows } from './packed-rows';

describe('search rows packed for the search thread', () => {
  it('come back exactly, empty strings, surrogate pairs, CJK and prompt parts included, in order', () => {
    const packer = new RowPacker();
    const rows = [
      { id: 7, sessionKey: 2 ** 52 + 3, text: 'retry with backoff', cjk: '', said: true, promptParts: [] },
      { id: 8, sessionKey: 5, text: '', cjk: '日 志 落 盘', said: false, promptParts: ['[{"role":"user"}]', 'the request'] },
      { id: 9, sessionKey: 5, text: 'prompt 😀 text\u0000with a NUL', cjk: '', said: false, promptParts: [''] },
      { id: 2 ** 40, sessionKey: 0, text: '𝒳'.repeat(3), cjk: '重', said: true, promptParts: ['😀'] },
    ];
    for (const r of rows) packer.add(r.id, r.sessionKey, r.text, r.cjk, r.said, r.promptParts);
    expect(packer.size).toBe(4);
    // every character posted counts against the search thread's in-flight bound, prompt parts too
    expect(packer.chars).toBe(18 + 7 + (17 + 11) + 25 + 0 + (6 + 1) + 2);
    const { rows: packed, transfer } = packer.take();
    expect(transfer).toHaveLength(7);
    expect(unpackRows(structuredClone(packed))).toEqual(rows);
    // taken: empty again
    expect([packer.size, packer.chars]).toEqual([0, 0]);
    expect(unpackRows(packer.take().rows)).toEqual([]);
  });

  it('refuse lengths that do not add up to the joined text', () => {
    const packer = new RowPacker();
    packer.add(1, 1, 'abc', '', false, ['x']);
    const { rows } = packer.take();
    expect(() => unpackRows({ ...rows, text: 'abcd' })).toThrow(/do not add up \(3 of 4 characters\)/);
    expect(() => unpackRows({ ...rows, promptCounts: Uint8Array.from([0]) })).toThrow(/do not add up \(0 of 1 prompt parts\)/);
  });
});
