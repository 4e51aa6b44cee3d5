import { describe, expect, it } from 'vitest';
import { parseJsonc } from './jsonc';

describe('parseJsonc', () => {
  it('drops line and block comments and trailing commas, but not look-alikes inside strings', () => {
    const text = `\uFEFF{
      // the folders
      "folders": [
        { "path": "a // not a comment", }, /* block
        comment */
        { "uri": "file:///x/y,]" },
      ],
      "settings": { "s": "/* kept */", "q": "say \\"hi\\", // still text", },
    }`;
    expect(parseJsonc(text)).toEqual({
      folders: [{ path: 'a // not a comment' }, { uri: 'file:///x/y,]' }],
      settings: { s: '/* kept */', q: 'say "hi", // still text' },
    });
  });

  it('still rejects what is not JSON', () => {
    expect(() => parseJsonc('{ folders: [] }')).toThrow(SyntaxError);
  });
});
