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
