import { describe, expect, it } from 'vitest';
import { CHUNK_ROWS, CommitRowsCollector, INT, NUM, recycleCommitRowChunks } from './commit-rows';

const call = (c: CommitRowsCollector, id: number, o: { type?: string; dur?: number | null; status?: number; fail?: string | null; dup?: number } = {}) =>
  c.add(id, o.type ?? 'llm_request', 'chat:gpt-4.1', 'gpt-4.1', null, o.status ?? 0, 1_000 + id, o.dur === undefined ? 900 : o.dur, null, 10, null, null, 3, o.fail ?? null, o.dup ?? 0);

describe('CommitRowsCollector', () => {
  it("keeps the rows the triage model keeps, in the model's encoding, between begin and take", () => {
    const c = new CommitRowsCollector();
    call(c, 1); // no group open: nothing
    c.begin(10);
    call(c, 11);
    call(c, 12, { type: 'turn_start', dur: 0 }); // an instant event that did not fail: not the model's
    call(c, 13, { type: 'generic', dur: null, status: 1 }); // failed: kept, a NULL duration as 0
    call(c, 14, { type: 'user_message', dur: 0, dup: 1 }); // a copy: kept (jq counts it)
    call(c, 15, { type: 'discovery', dur: 0, fail: 'EACCES' });
    const rows = c.take(20, 7);
    expect(rows && { schema: rows.schema, after: rows.after, through: rows.through, n: rows.n, strings: rows.strings }).toEqual({
      schema: 7,
      after: 10,
      through: 20,
      n: 4,
      strings: ['llm_request', 'chat:gpt-4.1', 'gpt-4.1', 'generic', 'user_message', 'discovery', 'EACCES'],
    });
    const num = [...rows!.num[0].slice(0, 4 * NUM)];
    expect(num.slice(0, NUM)).toEqual([11, 1011, 900, NaN, 10, NaN, NaN]);
    expect(num.slice(NUM, 2 * NUM)).toEqual([13, 1013, 0, NaN, 10, NaN, NaN]);
    expect([...rows!.int[0].slice(0, INT)]).toEqual([0, 3, 0, 0, 1, 2, -1, -1]);
    expect([...rows!.int[0].slice(3 * INT, 4 * INT)]).toEqual([0, 3, 0, 5, 1, 2, -1, 6]);
    expect(c.take(30, 7)).toBeNull(); // taken: no group open
  });

  it('fills chunks of CHUNK_ROWS rows', () => {
    const c = new CommitRowsCollector();
    c.begin(0);
    for (let id = 1; id <= CHUNK_ROWS + 5; id++) call(c, id);
    const rows = c.take(CHUNK_ROWS + 5, 1)!;
    expect([rows.n, rows.num.length, rows.int.length]).toEqual([CHUNK_ROWS + 5, 2, 2]);
    expect(rows.num[1][4 * NUM]).toBe(CHUNK_ROWS + 5);
  });

  it('hands nothing over for a group rolled back, or whose ids went back (a refill of older lines): SQL reads those', () => {
    const c = new CommitRowsCollector();
    c.begin(10);
    call(c, 11);
    c.discard();
    expect(c.take(11, 1)).toBeNull();
    c.begin(10);
    call(c, 11);
    call(c, 5);
    expect(c.take(11, 1)).toBeNull();
    c.begin(10);
    call(c, 12);
    expect(c.take(11, 1)).toBeNull(); // a row past the commit's last id
    c.begin(10);
    call(c, 11);
    expect(c.take(11, 1)?.n).toBe(1);
  });

  it('writes the next groups into the chunks handed back, and sends no chunk for a group without rows', () => {
    const c = new CommitRowsCollector();
    c.begin(0);
    for (let id = 1; id <= 3; id++) call(c, id);
    const first = c.take(3, 1)!;
    recycleCommitRowChunks(first.num, first.int);
    c.begin(3);
    call(c, 4);
    const second = c.take(4, 1)!;
    expect(second.num[0]).toBe(first.num[0]);
    expect(second.int[0]).toBe(first.int[0]);
    expect([second.n, second.num[0][0]]).toEqual([1, 4]);
    c.begin(4);
    call(c, 5, { type: 'turn_start', dur: 0 });
    expect(c.take(5, 1)).toEqual({ schema: 1, after: 4, through: 5, n: 0, num: [], int: [], strings: [] });
  });
});
