import { describe, expect, it } from 'vitest';
import { EntryColumns, NONE } from './entry-columns';
import type { SpanEntry } from './span-tree';
import { pairKeys } from './span-tree';

const S = 'aaaaaaaa-1111-4111-8111-111111111111';
const entry = (id: number, more: Partial<SpanEntry> = {}): SpanEntry => ({
  id,
  sessionId: S,
  type: 'tool_call',
  name: 'read_file',
  spanId: id.toString(16).padStart(16, '0'),
  parentSpanId: '0000000000000001',
  status: 0,
  ts: 1000 + id,
  dur: 5,
  model: null,
  tool: 'read_file',
  ttft: null,
  tokensIn: null,
  tokensOut: null,
  dup: 0,
  ...more,
});

describe('EntryColumns', () => {
  it('grows past the rows it was sized for and gives every row back exactly, nulls and an absent run included', () => {
    const cols = new EntryColumns(2);
    const rows = [entry(1, { parentSpanId: null, ts: null, rIdx: 3 }), entry(2, { model: 'gpt-4.1', ttft: 300, tokensIn: 10, tokensOut: 0 }), entry(3, { status: 1, dup: 1 })];
    for (const e of rows) cols.push(e);
    cols.seal();
    expect(cols.length).toBe(3);
    expect(cols.id.length).toBe(3); // the spare capacity is gone after seal
    expect(cols.toArray()).toEqual(rows);
    expect(cols.at(0).rIdx).toBe(3);
    expect('rIdx' in cols.at(1)).toBe(false);
  });

  it('names a row without a name by its type (the loader passes null)', () => {
    const cols = new EntryColumns();
    cols.pushRow(7, S, 'session_start', null, null, null, 0, 5, 0, null, null, null, null, null, 0, null);
    expect(cols.at(0)).toEqual({ id: 7, sessionId: S, type: 'session_start', name: 'session_start', spanId: null, parentSpanId: null, status: 0, ts: 5, dur: 0, model: null, tool: null, ttft: null, tokensIn: null, tokensOut: null, dup: 0 });
  });

  it('extends a sealed copy (a live append): old rows and keys kept, new rows added, the original untouched', () => {
    const a = EntryColumns.of([entry(1), entry(2, { model: 'gpt-4.1', rIdx: 1 })]);
    a.seal();
    const b = EntryColumns.extending(a, 3);
    b.push(entry(9, { type: 'llm_request', name: 'chat', model: 'gpt-4.1', parentSpanId: '0000000000000001' }));
    b.push(entry(10)); // past the capacity asked for: grows
    expect(b.toArray()).toEqual([
      entry(1),
      entry(2, { model: 'gpt-4.1', rIdx: 1 }),
      entry(9, { type: 'llm_request', name: 'chat', model: 'gpt-4.1', parentSpanId: '0000000000000001' }),
      entry(10),
    ]);
    // strings already in the table keep their key; a new row naming an old span links to it
    expect(b.parentSpanIdKey(2)).toBe(a.spanIdKey(0));
    expect(b.keyOf('gpt-4.1')).toBe(a.keyOf('gpt-4.1'));
    expect(b.stringCount).toBe(a.stringCount + 4); // new: 'llm_request', 'chat' and the span ids ...09 and ...0a
    expect(a.length).toBe(2);
    expect(a.toArray()).toEqual([entry(1), entry(2, { model: 'gpt-4.1', rIdx: 1 })]);
    expect(a.keyOf('chat')).toBe(NONE);
  });

  it('keys equal strings alike across columns, and still finds them after seal', () => {
    const cols = EntryColumns.of([entry(1, { parentSpanId: null }), entry(2)]);
    // row 1's parentSpanId names row 0's span id: one key
    expect(cols.parentSpanIdKey(1)).toBe(cols.spanIdKey(0));
    expect(cols.parentSpanIdKey(0)).toBe(NONE);
    cols.seal();
    expect(cols.keyOf('0000000000000001')).toBe(cols.spanIdKey(0));
    expect(cols.keyOf('not there')).toBe(NONE);
    expect(cols.keyOf(null)).toBe(NONE);
    expect(cols.stringAt(cols.sessionKey(1))).toBe(S);
  });
});

describe('pairKeys', () => {
  it('packs a (session, span, run) triple into one number while it fits in 53 bits, else a string; distinct triples never collide', () => {
    const small = pairKeys(1000, 4);
    expect(small(3, 7)).toBe(3 * 1001 + 7);
    expect(small(3, 7, 2)).toBe((2 * 1001 + 3) * 1001 + 7);
    const keys = new Set<number | string>();
    for (let a = 0; a <= 1000; a += 250) for (let b = 0; b <= 1000; b += 250) for (let c = 0; c < 4; c++) keys.add(small(a, b, c));
    expect(keys.size).toBe(5 * 5 * 4);
    const huge = pairKeys(100_000_000, 2);
    expect(huge(3, 7, 1)).toBe('1:3:7');
  });
});
