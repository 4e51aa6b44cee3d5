import { describe, expect, it } from 'vitest';
import { decodeLine, parseLine } from './parse-line';

describe('parseLine', () => {
  it('accepts a JSON object line as written by Copilot', () => {
    const r = parseLine('{"ts":1,"type":"tool_call","attrs":{"x":1}}');
    expect(r).toEqual({ ok: true, entry: { ts: 1, type: 'tool_call', attrs: { x: 1 } } });
  });

  it('tolerates a CRLF line ending (a file copied through Windows)', () => {
    expect(parseLine('{"a":1}\r')).toEqual({ ok: true, entry: { a: 1 } });
  });

  it.each([
    ['an empty line', '', 'empty line'],
    ['a JSON array', '[1,2]', 'a JSON array, not an object'],
    ['a JSON scalar', '42', 'a JSON number, not an object'],
    ['a JSON string', '"x"', 'a JSON string, not an object'],
    ['JSON null', 'null', 'a JSON null, not an object'],
    ['plain text', 'garbage line', 'not JSON'],
    ['NUL bytes', '{"a":\u0000\u0000}', 'contains NUL bytes (binary garbage)'],
    // wherever the NUL is: in a string, before the brace, after a whole object, in an array
    ['a NUL in a string', '{"a":"x\u0000y"}', 'contains NUL bytes (binary garbage)'],
    ['a NUL before the object', '\u0000{"a":1}', 'contains NUL bytes (binary garbage)'],
    ['a NUL after the object', '{"a":1}\u0000', 'contains NUL bytes (binary garbage)'],
    ['a NUL in an array', '[1,\u0000]', 'contains NUL bytes (binary garbage)'],
  ])('rejects %s with a short reason', (_what, text, reason) => {
    expect(parseLine(text)).toEqual({ ok: false, reason });
  });

  it('rejects a line cut mid-object (the size cap, a crash) as invalid JSON', () => {
    const r = parseLine('{"ts":1775000004850,"dur":35,"name":"read_f');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason.startsWith('invalid JSON: ')).toBe(true);
  });

  it('keeps the reason short even when the engine quotes the whole input', () => {
    const r = parseLine('{' + 'x'.repeat(10_000));
    expect(!r.ok && r.reason.length).toBeLessThanOrEqual(134);
  });

  it('parses 100,000 levels of nesting without overflowing the stack', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    expect(parseLine(deep).ok).toBe(true);
  });
});

describe('decodeLine', () => {
  it('replaces invalid UTF-8 (a sequence split by a byte cut) with U+FFFD', () => {
    const bytes = Buffer.concat([Buffer.from('{"c":"'), Buffer.from('落盘', 'utf8').subarray(0, 4), Buffer.from('"}')]);
    expect(decodeLine(bytes)).toBe('{"c":"落\uFFFD"}');
  });
});

describe('split surrogate pairs', () => {
  it('replaces a lone surrogate left by the 5,000-character cut with U+FFFD, at any depth', () => {
    const r = parseLine('{"attrs":{"content":"a\\ud83d[truncated]","list":[{"x":"\\ude00"}],"ok":"\\ud83d\\ude00"}}');
    expect(r).toEqual({ ok: true, entry: { attrs: { content: 'a\uFFFD[truncated]', list: [{ x: '\uFFFD' }], ok: '😀' } } });
  });
});
