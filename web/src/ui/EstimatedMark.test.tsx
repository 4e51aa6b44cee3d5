import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EstimatedMark } from './EstimatedMark';

describe('EstimatedMark', () => {
  it('says "estimated" only for figures marked estimated; compact shows "est." and is read as "estimated"', () => {
    expect(renderToStaticMarkup(<EstimatedMark />)).toBe('');
    expect(renderToStaticMarkup(<EstimatedMark estimated={false} />)).toBe('');
    expect(renderToStaticMarkup(<EstimatedMark estimated />)).toMatch(/^<span class="estimated-mark" title="Estimated: [^"]+">estimated<\/span>$/);
    expect(renderToStaticMarkup(<EstimatedMark estimated compact />)).toMatch(/aria-label="estimated">est\.<\/span>$/);
  });
});
