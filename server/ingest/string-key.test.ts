import { describe, expect, it } from 'vitest';
import { stringKey, stringKeyOfRange } from './string-key';

describe('stringKey', () => {
  it('is a safe integer that depends on every code unit, the length and the order', () => {
    const base = 'Run the tests in packages/api and fix what fails.';
    const variants = [
      base,
      base + ' ',
      base.slice(1),
      base.replace('api', 'apj'),
      base.replace('R', 'r'),
      'fails. Run the tests in packages/api and fix what',
      '',
      '\u0000',
      '\u0000\u0000',
      '落盘失败',
      '落盘失败'.split('').reverse().join(''),
      'x'.repeat(100_000),
      'x'.repeat(100_001),
    ];
    const keys = variants.map(stringKey);
    expect(keys.every((k) => Number.isSafeInteger(k) && k >= 0)).toBe(true);
    expect(new Set(keys).size).toBe(variants.length);
    expect(stringKey(base)).toBe(stringKey(`Run the tests in packages/${'api'} and fix what fails.`));
  });

  it('gives 200,000 distinct strings of one shape 200,000 distinct keys', () => {
    const keys = new Set<number>();
    for (let i = 0; i < 200_000; i++) keys.add(stringKey(`{"role":"tool","content":"line ${i} of the output"}`));
    expect(keys.size).toBe(200_000);
  });

  it('of a range is the key of that slice', () => {
    const s = 'fix the retry loop\u001f 日志 😀 \u001f';
    for (const [a, b] of [[0, s.length], [0, 18], [19, 26], [5, 5], [s.length, s.length]]) expect([a, b, stringKeyOfRange(s, a, b)]).toEqual([a, b, stringKey(s.slice(a, b))]);
  });
});
