import { describe, expect, it } from 'vitest';
import { CELL_PREVIEW_CHARS, cellPreview, numericColumns, visibleText } from './cell-text';

describe('visibleText', () => {
  it('shows ANSI escapes, C1 controls, bidi and zero-width characters as escapes, and keeps newlines and tabs', () => {
    expect(visibleText('\u001b[31mred\u001b[0m')).toBe('\\u{001b}[31mred\\u{001b}[0m');
    expect(visibleText('a\u202Eb\u2066c\u200Bd\u009be')).toBe('a\\u{202e}b\\u{2066}c\\u{200b}d\\u{009b}e');
    expect(visibleText('one\ntwo\tthree')).toBe('one\ntwo\tthree');
    expect(visibleText('<script>alert(1)</script> &amp;')).toBe('<script>alert(1)</script> &amp;');
  });
});

describe('cellPreview', () => {
  it('is one bounded line: NULL marked, newlines flattened, long text cut with an ellipsis', () => {
    expect(cellPreview(null)).toEqual({ text: 'NULL', isNull: true, cut: false });
    expect(cellPreview('a\nb')).toEqual({ text: 'a b', isNull: false, cut: false });
    const long = cellPreview('x'.repeat(10_000_000));
    expect(long.text.length).toBe(CELL_PREVIEW_CHARS + 1);
    expect(long.cut).toBe(true);
    expect(cellPreview(42).text).toBe('42');
  });
});

describe('numericColumns', () => {
  it('is true for columns whose non-null values are all numbers', () => {
    expect(numericColumns(['a', 'b', 'c'], [[1, 'x', null], [null, 2, null]])).toEqual([true, false, false]);
  });
});
