import { createContext, useContext, useMemo } from 'react';
import { segmentByRanges, termRanges } from './highlight';
import { visibleBlock, visibleText } from './visible-text';

/** The search terms to mark in log text below (the session page opened from a search); none by default. */
const HighlightTermsContext = createContext<readonly string[]>([]);

export const HighlightTermsProvider = HighlightTermsContext.Provider;

/**
 * Log text with the search terms marked, as text nodes (never HTML): cut at the matches first, each piece made
 * visible after (`visibleText`, or `visibleBlock` for multi-line text), so a mark stays on its match.
 */
export function TermText({ text, block = false }: { text: string; block?: boolean }) {
  const terms = useContext(HighlightTermsContext);
  const ranges = useMemo(() => termRanges(text, terms), [text, terms]);
  const show = block ? visibleBlock : visibleText;
  if (ranges.length === 0) return <>{show(text)}</>;
  return <>{segmentByRanges(text, ranges).map((s, i) => (s.highlighted ? <mark key={i}>{show(s.text)}</mark> : show(s.text)))}</>;
}
