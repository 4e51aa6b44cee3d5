import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { HOSTILE, HOSTILE_SHOWN, rawInvisible } from '../test-support/hostile-text';
import { HighlightedText } from './HighlightedText';

describe('HighlightedText', () => {
  it('escapes invisible characters and keeps each highlight on its match (the offsets are into the raw text)', () => {
    const text = `${HOSTILE} retry ${HOSTILE} loop`;
    const at = text.indexOf('retry');
    const loop = text.indexOf('loop');
    const html = renderToStaticMarkup(<HighlightedText text={text} ranges={[[at, at + 5], [loop, loop + 4]]} />);
    expect(html).toBe(`<span>${HOSTILE_SHOWN} <mark>retry</mark> ${HOSTILE_SHOWN} <mark>loop</mark></span>`);
    expect(rawInvisible(html)).toEqual([]);
  });

  it('a highlight that covers an invisible character shows its escape inside the mark', () => {
    const html = renderToStaticMarkup(<HighlightedText text={'a\u202Eb'} ranges={[[1, 3]]} />);
    expect(html).toBe('<span>a<mark>\\u{202e}b</mark></span>');
  });
});
