import { describe, expect, it } from 'vitest';
import { boundJsonDepth, tooDeepMarker } from './json-depth';

describe('boundJsonDepth', () => {
  it('replaces what lies at depth max and keeps what is shallower, arrays and objects alike', () => {
    expect(boundJsonDepth({ a: [1, { b: [2] }], c: 'x' }, 3)).toEqual({ a: [1, { b: tooDeepMarker(3) }], c: 'x' });
    expect(boundJsonDepth([[[]], [[0]]], 2)).toEqual([[[]], [tooDeepMarker(2)]]);
    expect(tooDeepMarker(3)).toBe('[nested deeper than 3 levels: see the raw line]');
  });

  it('returns the same value when nothing is too deep (no copy of a big event)', () => {
    const v = { messages: Array.from({ length: 1000 }, (_, i) => ({ role: 'user', parts: [{ content: String(i) }] })) };
    expect(boundJsonDepth(v, 10)).toBe(v);
  });

  it('walks 100,000 levels without overflowing, and keeps an own __proto__ key an own key', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
    expect(JSON.stringify(boundJsonDepth(deep, 3))).toBe(`[[["${tooDeepMarker(3)}"]]]`);
    const hostile = JSON.parse('{"__proto__": {"x": {"y": 1}}, "k": 1}') as Record<string, unknown>;
    const bounded = boundJsonDepth(hostile, 2) as Record<string, unknown>;
    expect(Object.getPrototypeOf(bounded)).toBe(Object.prototype);
    expect(Object.keys(bounded)).toEqual(['__proto__', 'k']);
    expect(JSON.stringify(bounded)).toBe(`{"__proto__":{"x":"${tooDeepMarker(2)}"},"k":1}`);
  });
});
