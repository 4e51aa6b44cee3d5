// foldWhitespace replaces only the runs that are not already one plain space: the result must be exactly what
// folding every run of \s to one space gives, for every kind of whitespace JavaScript's \s knows.
import { describe, expect, it } from 'vitest';
import { foldWhitespace } from './indexed-text';

const everyRun = (text: string) => text.replace(/\s+/g, ' ').trim();
const WHITESPACE = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];

describe('foldWhitespace', () => {
  it('folds like \\s+ → one space on fixed cases', () => {
    expect(foldWhitespace('  a \t b\n\nc  ')).toBe('a b c');
    expect(foldWhitespace('a\u00a0b\u3000\u3000c d')).toBe('a b c d');
    expect(foldWhitespace(' ')).toBe('');
    expect(foldWhitespace('retry  with\r\nbackoff')).toBe('retry with backoff');
  });

  it('equals \\s+ → one space on 20,000 random strings of words and every kind of whitespace', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      const n = Math.floor(next() * 12);
      for (let k = 0; k < n; k++) s += next() < 0.5 ? WHITESPACE[Math.floor(next() * WHITESPACE.length)] : 'ab日'[Math.floor(next() * 3)];
      expect(foldWhitespace(s), JSON.stringify(s)).toBe(everyRun(s));
    }
  });
});
