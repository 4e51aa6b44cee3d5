import type { QueryTerm } from './query-parser';

/**
 * User text → FTS5 query strings. Every term becomes one FTS5 string ("…", an embedded quote doubled), so
 * nothing the user types is FTS5 syntax: inside a string, `*`, `:`, `(`, `-`, `^`, AND/OR/NOT/NEAR are
 * literal characters handed to the tokenizer.
 */

/** A trigram phrase: the tokenizer turns it into consecutive trigrams, i.e. a case-insensitive substring. */
export function trigramPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * A 1–2 character CJK term for `event_cjk`, whose text has each CJK character as its own token: the characters
 * as a phrase of single-character tokens (落盘 → "落 盘"), so that they must be adjacent, as in the text.
 */
export function cjkPhrase(text: string): string {
  return `"${Array.from(text).join(' ').replace(/"/g, '""')}"`;
}

export function phraseFor(term: QueryTerm): string {
  return term.index === 'trigram' ? trigramPhrase(term.text) : cjkPhrase(term.text);
}

/**
 * `(a AND b) NOT (c OR d)` for the terms that one index answers; null when it has no required term (FTS5
 * cannot start from NOT alone: exclusions without a required term of that index are applied elsewhere).
 */
export function matchExpression(terms: QueryTerm[], index: QueryTerm['index']): string | null {
  const mine = terms.filter((t) => t.index === index);
  const pos = mine.filter((t) => !t.exclude).map(phraseFor);
  const neg = mine.filter((t) => t.exclude).map(phraseFor);
  if (pos.length === 0) return null;
  const required = pos.length === 1 ? pos[0] : `(${pos.join(' AND ')})`;
  return neg.length === 0 ? required : `${required} NOT (${neg.join(' OR ')})`;
}

/** Only the exclusions of one index, OR-ed (to subtract their rows), or null. */
export function exclusionExpression(terms: QueryTerm[], index: QueryTerm['index']): string | null {
  const neg = terms.filter((t) => t.index === index && t.exclude).map(phraseFor);
  return neg.length === 0 ? null : neg.join(' OR ');
}

/** Only the required terms of one index, AND-ed, or null. */
export function requiredExpression(terms: QueryTerm[], index: QueryTerm['index']): string | null {
  const pos = terms.filter((t) => t.index === index && !t.exclude).map(phraseFor);
  return pos.length === 0 ? null : pos.join(' AND ');
}

/** Case-insensitive literal matcher over folded text, the same test the index answers (for verifying and highlighting). */
export function termRegExp(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'giu');
}

/** Does folded `text` satisfy every term (all required present, no excluded one)? */
export function textMatches(text: string, terms: QueryTerm[]): boolean {
  for (const t of terms) {
    const found = termRegExp(t.text).test(text);
    if (found === t.exclude) return false;
  }
  return true;
}
