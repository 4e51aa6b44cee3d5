import { describe, expect, it } from 'vitest';
import { NumberKeyMap } from './number-key-map';

describe('NumberKeyMap', () => {
  it('keeps a value per key, overwrites on set, and says undefined for a key never set', () => {
    const m = new NumberKeyMap();
    m.set(7, 1);
    m.set(0, 2);
    m.set(7, 3);
    expect([m.get(7), m.get(0), m.get(8), m.has(0), m.has(8), m.size]).toEqual([3, 2, undefined, true, false, 2]);
  });

  it('tells keys apart past 2^32 and up to 2^53 whose low 32 bits are equal (composite span keys)', () => {
    const m = new NumberKeyMap();
    const keys = [5, 5 + 2 ** 32, 5 + 2 ** 40, 2 ** 53 - 1, 2 ** 53 - 1 - 2 ** 32];
    keys.forEach((k, i) => m.set(k, i));
    expect(keys.map((k) => m.get(k))).toEqual([0, 1, 2, 3, 4]);
    expect(m.get(5 + 2 ** 33)).toBeUndefined();
  });

  it('grows past its first size and finds every key after, dense counters and scattered keys alike', () => {
    const m = new NumberKeyMap(4);
    const keys: number[] = [];
    for (let i = 0; i < 50_000; i++) keys.push(i, i * 1_000_003 + 2 ** 35);
    keys.forEach((k, i) => m.set(k, i));
    expect(m.size).toBe(100_000);
    expect(keys.every((k, i) => m.get(k) === i)).toBe(true);
    expect(m.get(50_000)).toBeUndefined();
  });

  it('is empty after clear and can be filled again', () => {
    const m = new NumberKeyMap(1000);
    for (let i = 0; i < 1000; i++) m.set(i, i);
    m.clear();
    expect([m.size, m.get(1), m.has(999)]).toEqual([0, undefined, false]);
    m.set(1, 9);
    expect(m.get(1)).toBe(9);
  });
});
