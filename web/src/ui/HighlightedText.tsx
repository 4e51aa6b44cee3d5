import { segmentByRanges } from './highlight';

/** Log text with some ranges marked: built from offsets as React text nodes, never as HTML. */
export function HighlightedText({ text, ranges, className }: { text: string; ranges: readonly (readonly [number, number])[]; className?: string }) {
  return (
    <span className={className}>
      {segmentByRanges(text, ranges).map((s, i) => (s.highlighted ? <mark key={i}>{s.text}</mark> : s.text))}
    </span>
  );
}
