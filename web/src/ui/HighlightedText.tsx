import { segmentByRanges } from './highlight';
import { visibleText } from './visible-text';

/**
 * Log text with some ranges marked: built from offsets as React text nodes, never as HTML. The offsets are the
 * server's, into the raw text: it is cut first and each piece escaped after, so a highlight stays on its match.
 */
export function HighlightedText({ text, ranges, className }: { text: string; ranges: readonly (readonly [number, number])[]; className?: string }) {
  return (
    <span className={className}>
      {segmentByRanges(text, ranges).map((s, i) => (s.highlighted ? <mark key={i}>{visibleText(s.text)}</mark> : visibleText(s.text)))}
    </span>
  );
}
