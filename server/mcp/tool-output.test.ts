import { describe, expect, it } from 'vitest';
import { boundedResult } from './tool-output';

const textOf = (r: ReturnType<typeof boundedResult>) => (r.content[0] as { text: string }).text;

describe('boundedResult', () => {
  it('passes a small answer through whole, as text and structured content', () => {
    const r = boundedResult({ a: 1, items: ['x'] }, { listKey: 'items' });
    expect(textOf(r)).toBe('{"a":1,"items":["x"]}');
    expect(r.structuredContent).toEqual({ a: 1, items: ['x'] });
  });

  it('shortens long strings first, saying how many and to what length', () => {
    const r = boundedResult({ items: [{ t: 'a'.repeat(5000) }, { t: 'b'.repeat(5000) }] }, { listKey: 'items', maxChars: 3000 });
    const body = r.structuredContent as { items: { t: string }[]; cut: string };
    expect(textOf(r).length).toBeLessThanOrEqual(3000);
    expect(body.items).toHaveLength(2);
    expect(body.items[0].t).toBe(`${'a'.repeat(1000)}… [cut: 4000 more characters]`);
    expect(body.cut).toBe(
      'output cut to stay within 3,000 characters: 2 long values shortened to 1000 characters; narrow the request (filters, limit, max_chars) or page with the cursor to see the rest',
    );
  });

  it('then drops items from the end of the list, saying how many of how many', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ n: i, t: 'z'.repeat(100) }));
    const r = boundedResult({ total: 200, items }, { listKey: 'items', maxChars: 5000 });
    const body = r.structuredContent as { items: { n: number }[]; cut: string };
    expect(textOf(r).length).toBeLessThanOrEqual(5000);
    expect(body.items[0].n).toBe(0);
    expect(body.items.map((x) => x.n)).toEqual(Array.from({ length: body.items.length }, (_, i) => i));
    expect(body.cut).toContain(`the last ${200 - body.items.length} of 200 items left out;`);
    expect(body.items.length).toBeGreaterThan(30);
  });
});
