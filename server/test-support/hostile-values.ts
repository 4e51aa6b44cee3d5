import { hashSeed, Rng } from '../corpus/random';

// What a fuzz test throws at the query language and at every route parameter: random bytes, the query
// language's own operators and quotes, lone surrogates, the names an object-prototype lookup would find,
// huge and negative numbers, empty and very long strings. Seeded (bench's Rng), so a failure replays.

export { hashSeed, Rng };

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

const NUMBERS = ['0', '-1', '-0', '1e309', '-1e309', '9007199254740993', '99999999999999999999999', '1.5', 'NaN', 'Infinity', '0x10', '1e3', ' 7', '+3', '2147483648', '-9223372036854775809'];

const OPERATORS = ['-', '--', '"', '""', '"""', ':', '*', '(', ')', 'NEAR', 'NEAR(', 'AND', 'OR', 'NOT', '||', '^', ',', '#', '\\', "'", '%', '$', '{', '}', '[', ']', '/', '..', '~'];

/** Characters that have broken parsers, FTS5 and terminals before: NUL, controls, bidi, zero-width, BOM. */
const AWKWARD_CHARS = ['\u0000', '\u0001', '\u001b', '\u007f', '\u0085', '\u200b', '\u200f', '\u202e', '\u2066', '\ufeff', '\ufffd', '\ud800', '\udfff', '\n', '\t', '\r', ' ', '落', '盘', 'é', '\u{1f600}'];

const FILTER_KEYS = ['repo', 'branch', 'type', 'tool', 'model', 'status', 'file', 'ref', 'Type', 'TYPE'];

/** A JS string, possibly holding lone surrogates and NUL. */
export function hostileString(rng: Rng): string {
  switch (rng.int(0, 9)) {
    case 0:
      return '';
    case 1:
      return rng.pick(PROTOTYPE_NAMES);
    case 2:
      return rng.pick(NUMBERS);
    case 3:
      return rng.pick(OPERATORS).repeat(rng.int(1, 3));
    case 4: {
      let s = '';
      for (let n = rng.int(1, 12); n > 0; n--) s += rng.pick(AWKWARD_CHARS);
      return s;
    }
    case 5:
      return String.fromCharCode(...Array.from({ length: rng.int(1, 16) }, () => rng.int(0, 0xffff)));
    case 6:
      return 'x'.repeat(rng.pick([200, 401, 2001, 20_000, 120_000]));
    case 7:
      return queryLanguageText(rng);
    case 8:
      return `${rng.pick(PROTOTYPE_NAMES)}${rng.pick(['', ',', '.', ':'])}${rng.pick(PROTOTYPE_NAMES)}`;
    default:
      return rng.pick(['retry', 'abc', 'wsReconnectLoop', 'x', 'true', 'null', 'undefined', '[]', '{}', 'all', '7d', 'desc', 'error', 'ok']);
  }
}

/** Text in (and around) the query language: words, phrases, exclusions, filters with odd values. */
export function queryLanguageText(rng: Rng): string {
  const parts: string[] = [];
  for (let n = rng.int(1, 6); n > 0; n--) {
    const value = () => (rng.chance(0.3) ? `"${hostileShortString(rng)}"` : hostileShortString(rng));
    switch (rng.int(0, 5)) {
      case 0:
        parts.push(`${rng.pick(FILTER_KEYS)}:${value()}`);
        break;
      case 1:
        parts.push(`-${value()}`);
        break;
      case 2:
        parts.push(`"${hostileShortString(rng)} ${hostileShortString(rng)}${rng.chance(0.5) ? '"' : ''}`);
        break;
      case 3:
        parts.push(rng.pick(OPERATORS));
        break;
      case 4:
        parts.push(`type:${rng.pick(PROTOTYPE_NAMES)}`);
        break;
      default:
        parts.push(value());
    }
  }
  return parts.join(rng.pick([' ', '  ', '\t', '\u3000', '']));
}

function hostileShortString(rng: Rng): string {
  const s = rng.chance(0.5) ? rng.pick(['retry', 'abc', '落盘', 'io', 'pr#12', 'a,b', ',', '', 'error', 'tool', ...PROTOTYPE_NAMES]) : rng.pick(AWKWARD_CHARS) + rng.pick(['abc', '', 'x']) + rng.pick(AWKWARD_CHARS);
  return s;
}

/**
 * A string as it appears in a URL: percent-encoded, with lone surrogates as their (invalid) UTF-8 bytes, and
 * sometimes raw random bytes or a malformed escape that no decoder accepts.
 */
export function urlEncoded(rng: Rng, s: string): string {
  if (rng.chance(0.1)) return Array.from({ length: rng.int(1, 8) }, () => `%${rng.int(0, 255).toString(16).padStart(2, '0').toUpperCase()}`).join('');
  if (rng.chance(0.03)) return rng.pick(['%', '%G1', '%E0%A4%A', '%%', '%u202e', '%C0%80']);
  return percentEncoded(s);
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) becomes its invalid UTF-8 bytes. */
export function percentEncoded(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    out += c >= 0xd800 && c <= 0xdfff ? `%ED%${(0xa0 | ((c >> 6) & 0x1f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}` : encodeURIComponent(ch);
  }
  return out;
}

/** A JSON value of any shape, for request bodies. */
export function hostileJson(rng: Rng, depth = 0): unknown {
  switch (rng.int(0, depth > 2 ? 3 : 6)) {
    case 0:
      return hostileString(rng);
    case 1:
      return rng.pick([0, -1, 1e308, -1e308, 2 ** 53 + 2, 0.5, Number.MAX_SAFE_INTEGER]);
    case 2:
      return rng.pick([null, true, false]);
    case 3:
      return hostileString(rng);
    case 4:
      return Array.from({ length: rng.int(0, 3) }, () => hostileJson(rng, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: rng.int(0, 3) }, () => [rng.chance(0.5) ? rng.pick(PROTOTYPE_NAMES) : hostileString(rng).slice(0, 20), hostileJson(rng, depth + 1)]));
  }
}
