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

  // The same string in each representation V8 gives it (the search thread keys slices of a batch's joined text, and
  // concatenations, flat and internalized strings: string-key.ts calls charCodeAt without looking it up on each). The
  // value is the one the code before that change gave: keys are kept in the search file (prompt_docs), so they must not move.
  it('is the same for a string in every representation, and the same as a fixed value', () => {
    const text = 'Run the tests in packages/api \u001f 落盘失败 and fix what fails.';
    const joined = `${'x'.repeat(40)}${text}${'y'.repeat(40)}`;
    const forms = [
      text,
      joined.slice(40, 40 + text.length), // a sliced two-byte string
      text.slice(0, 20) + text.slice(20), // a concatenation
      JSON.parse(JSON.stringify(text)) as string, // flat, made by the JSON parser
      Object.keys(JSON.parse(`{${JSON.stringify(text)}:1}`) as object)[0], // an internalized key
    ];
    expect(forms.map(stringKey)).toEqual(forms.map(() => 1053699675917822));
    const ascii = 'x'.repeat(30) + 'Run the tests in packages/api' + 'y'.repeat(30);
    expect(stringKeyOfRange(ascii, 30, 59)).toBe(stringKey('Run the tests in packages/api'));
  });

  it('of a range is the key of that slice', () => {
    const s = 'fix the retry loop\u001f 日志 😀 \u001f';
    for (const [a, b] of [[0, s.length], [0, 18], [19, 26], [5, 5], [s.length, s.length]]) expect([a, b, stringKeyOfRange(s, a, b)]).toEqual([a, b, stringKey(s.slice(a, b))]);
  });
});
