import { FILTER_KEYS } from '../../../shared/search-filters';

export interface TextSegment {
  text: string;
  highlighted: boolean;
}

/**
 * Cuts `text` into plain and highlighted segments at the given [start, end) offsets (UTF-16, as the server
 * reports them). Ranges may be unsorted, overlapping or out of bounds: they are clamped and merged. The
 * segments joined give back `text` exactly, so highlighting never changes what is shown, and everything
 * stays text (no HTML is built from log content).
 */
export function segmentByRanges(text: string, ranges: readonly (readonly [number, number])[]): TextSegment[] {
  const clamped = ranges
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as [number, number])
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of clamped) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const out: TextSegment[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) out.push({ text: text.slice(at, s), highlighted: false });
    out.push({ text: text.slice(s, e), highlighted: true });
    at = e;
  }
  if (at < text.length || out.length === 0) out.push({ text: text.slice(at), highlighted: false });
  return out;
}

// A filter's words name no text (`source:cli` highlights nothing).
const FILTER_WORD = new RegExp(`^(${FILTER_KEYS.join('|')}):`, 'i');

/**
 * The words and phrases of a search query that text matched: not the `key:value` filters, not `-excluded`
 * words. A phrase in "double quotes" is one term (quotes doubled inside); whitespace folds as the index folds it.
 */
export function queryTerms(q: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < q.length) {
    if (/\s/.test(q[i])) {
      i++;
      continue;
    }
    const exclude = q[i] === '-' && i + 1 < q.length && !/\s|-/.test(q[i + 1]);
    if (exclude) i++;
    const filter = FILTER_WORD.test(q.slice(i, i + 12));
    let text: string;
    if (q[i] === '"' && q.indexOf('"', i + 1) > 0) {
      let j = i + 1;
      text = '';
      while (j < q.length) {
        if (q[j] === '"' && q[j + 1] === '"') {
          text += '"';
          j += 2;
        } else if (q[j] === '"') {
          j++;
          break;
        } else text += q[j++];
      }
      i = j;
    } else {
      const m = /^\S+/.exec(q.slice(i))!;
      text = m[0];
      i += text.length;
      // a filter's quoted value runs to its closing quote
      if (filter && /:"/.test(text) && !/:".*"$/.test(text)) {
        const close = q.indexOf('"', i);
        i = close < 0 ? q.length : close + 1;
      }
    }
    const folded = text.replace(/\s+/g, ' ').trim();
    if (!exclude && !filter && folded !== '' && !out.includes(folded)) out.push(folded);
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the terms occur in `text`, case-insensitively, a phrase's spaces matching any run of whitespace. */
export function termRanges(text: string, terms: readonly string[]): [number, number][] {
  if (terms.length === 0 || text === '') return [];
  const pattern = terms.map((t) => t.split(' ').map(escapeRegExp).join('\\s+')).join('|');
  const out: [number, number][] = [];
  for (const m of text.matchAll(new RegExp(pattern, 'giu'))) {
    if (m[0].length === 0) continue;
    out.push([m.index, m.index + m[0].length]);
    if (out.length >= 10_000) break;
  }
  return out;
}
