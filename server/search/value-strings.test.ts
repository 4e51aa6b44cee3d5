import { describe, expect, it } from 'vitest';
import { valueStrings } from './indexed-text';

// valueStrings takes shortcuts (issue 19.1: it is most of the text extraction of a backfill): a cut marker is
// recognised before any parse, a string token without an escape is not decoded, the first character decides
// "looks like JSON" unless it is whitespace. These pin what each shortcut must give: what the full path gave.
describe('valueStrings', () => {
  it("JSON cut at 5,000 characters: its string tokens, the cut last one with its marker (escapes decoded, or none)", () => {
    expect(valueStrings('[{"role":"user","parts":[{"type":"text","content":"he said \\"hi\\"\\nthen it bro[truncated]')).toEqual(['role', 'user', 'parts', 'type', 'text', 'content', 'he said "hi"\nthen it bro[truncated]']);
    expect(valueStrings('{"cut":"no escape here[truncated]')).toEqual(['cut', 'no escape here[truncated]']);
  });

  it("OTel's cut at 64,000 characters; a bracketed text ending in ` chars]` that is no marker is itself", () => {
    expect(valueStrings('{"a":"x","b":"y...[truncated, original 70000 chars]')).toEqual(['a', 'x', 'b', 'y...[truncated, original 70000 chars]']);
    expect(valueStrings('[see 3 chars]')).toEqual(['[see 3 chars]']);
  });

  it('leading whitespace: JSON after spaces is parsed; after a no-break space it is not JSON (JSON.parse refuses it) and stays as written', () => {
    expect(valueStrings('  [{"k":"plain"},"x\\u0041"]')).toEqual(['plain', 'xA']);
    expect(valueStrings('\u00a0{"a":"b"}')).toEqual(['\u00a0{"a":"b"}']);
    expect(valueStrings('\u3000x')).toEqual(['\u3000x']);
  });

  it("an object's values in property order (integer keys first, ascending), as Object.values gives them", () => {
    expect(valueStrings({ b: '1', 2: 'two', 1: 'one', nested: { z: ['a', { y: 'b' }] } })).toEqual(['one', 'two', '1', 'a', 'b']);
  });
});

describe('valueStrings of a cut value that is prose in brackets, not JSON', () => {
  // grep finds "build failed" in the log; search found nothing: the cut text's string tokens were none of its words
  it('is indexed as written, marker and all, like uncut prose in brackets', () => {
    expect(valueStrings('[ERROR] build failed[truncated]')).toEqual(['[ERROR] build failed[truncated]']);
    expect(valueStrings('[note] the "retry" loop ran twice[truncated]')).toEqual(['[note] the "retry" loop ran twice[truncated]']);
    expect(valueStrings('{placeholder} is not defined...[truncated, original 70000 chars]')).toEqual(['{placeholder} is not defined...[truncated, original 70000 chars]']);
    expect(valueStrings('[null pointer] at frame 3[truncated]')).toEqual(['[null pointer] at frame 3[truncated]']);
    expect(valueStrings('\u00a0[x] cut[truncated]')).toEqual(['\u00a0[x] cut[truncated]']);
  });

  it('JSON however it begins (a string, an object, a number, a literal, nested arrays, JSON whitespace) is still read by its tokens', () => {
    expect(valueStrings('["a","b[truncated]')).toEqual(['a', 'b[truncated]']);
    expect(valueStrings('{ "k" : "v[truncated]')).toEqual(['k', 'v[truncated]']);
    expect(valueStrings('{}, "x[truncated]')).toEqual(['x[truncated]']);
    expect(valueStrings('[\n  {"role":"user[truncated]')).toEqual(['role', 'user[truncated]']);
    expect(valueStrings('[-1, 2, "n[truncated]')).toEqual(['n[truncated]']);
    expect(valueStrings('[true, "t[truncated]')).toEqual(['t[truncated]']);
    expect(valueStrings('[null]["z[truncated]')).toEqual(['z[truncated]']);
    expect(valueStrings('[[["deep[truncated]')).toEqual(['deep[truncated]']);
    expect(valueStrings('[[truncated]')).toEqual([]);
  });
});
