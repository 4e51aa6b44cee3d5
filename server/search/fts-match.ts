import type { QueryTerm } from './query-parser';

/**
 * User text → FTS5 query strings. Every term becomes one FTS5 string ("…", an embedded quote doubled), so
 * nothing the user types is FTS5 syntax: inside a string, `*`, `:`, `(`, `-`, `^`, AND/OR/NOT/NEAR are
 * literal characters handed to the tokenizer.
 */

/**
 * Long terms. FTS5 answers a trigram phrase by looking up every one of its trigrams, in every segment of the
 * index: a 2,000-character phrase is ~2,000 lookups, and ran 7–8 s on the 1.6 GiB benchmark database (100 ms
 * at 64 MB: linear in the phrase's length, ~50 µs a trigram), on the server's event loop (issue 14.6). A term
 * longer than LONG_TERM_CHARS is therefore asked of the index as a few short pieces of itself, AND-ed (every
 * event that contains the term contains them: no false negatives), and the candidates are verified against the
 * whole term in the text the indexer indexed, rebuilt from the archive (no false positives).
 */
export const LONG_TERM_CHARS = 48;
/** Characters per piece: 10 trigrams each, selective enough that candidates are nearly all real matches. */
export const PIECE_CHARS = 12;
/** Pieces per long term: 80 trigram lookups instead of one per character (4 pieces left 341 candidates of one 2,000-character phrase on the 64 MB corpus, 8 left 1–2). */
export const MAX_PIECES = 8;

export function isLongTerm(t: QueryTerm): boolean {
  // Code points, as the pieces are cut: 49 UTF-16 units of emoji are too few characters for four pieces.
  return t.index === 'trigram' && t.text.length > LONG_TERM_CHARS && Array.from(t.text).length > LONG_TERM_CHARS;
}

/** Some term can only be settled by reading the candidates' text (see the file comment). */
export function needsVerification(terms: QueryTerm[]): boolean {
  return terms.some(isLongTerm);
}

function distinctChars(s: string): number {
  return new Set(s.toLowerCase()).size;
}

/**
 * The pieces a long term is looked up by: the term cut into MAX_PIECES equal stretches, and from each the
 * window with the most distinct characters (a run of spaces or `====` matches nearly everything; an identifier
 * matches little). Deterministic, so the same query reads the same candidates.
 */
export function selectivePieces(text: string): string[] {
  const chars = Array.from(text); // never split a surrogate pair
  const stretch = Math.floor(chars.length / MAX_PIECES);
  const pieces: string[] = [];
  for (let k = 0; k < MAX_PIECES; k++) {
    const from = k * stretch;
    const to = k === MAX_PIECES - 1 ? chars.length : from + stretch;
    let best = '';
    let bestScore = -1;
    for (let at = from; at + PIECE_CHARS <= to; at++) {
      const w = chars.slice(at, at + PIECE_CHARS).join('');
      const score = distinctChars(w);
      if (score > bestScore) {
        best = w;
        bestScore = score;
      }
    }
    pieces.push(best);
  }
  return [...new Set(pieces)]; // boilerplate repeats: the same piece twice costs its lookups twice
}

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

/** A long term as its pieces, AND-ed: what every event containing it contains (verify-candidates.ts settles it). */
export function piecesExpression(text: string): string {
  return `(${selectivePieces(text).map(trigramPhrase).join(' AND ')})`;
}

/** `exact`: the whole term even when long, for an index whose rows cannot be verified afterwards (prompts, companions). */
export function phraseFor(term: QueryTerm, exact = false): string {
  if (!exact && isLongTerm(term)) return piecesExpression(term.text);
  return term.index === 'trigram' ? trigramPhrase(term.text) : cjkPhrase(term.text);
}

/**
 * Exclusions the index can apply: not a long term's, whose pieces are in more events than the term is (those
 * are excluded after verification instead).
 */
const indexExcludable = (t: QueryTerm, exact = false) => t.exclude && (exact || !isLongTerm(t));

/**
 * `(a AND b) NOT (c OR d)` for the terms that one index answers; null when it has no required term (FTS5
 * cannot start from NOT alone: exclusions without a required term of that index are applied elsewhere).
 */
export function matchExpression(terms: QueryTerm[], index: QueryTerm['index'], exact = false): string | null {
  const mine = terms.filter((t) => t.index === index);
  const pos = mine.filter((t) => !t.exclude).map((t) => phraseFor(t, exact));
  const neg = mine.filter((t) => indexExcludable(t, exact)).map((t) => phraseFor(t, exact));
  if (pos.length === 0) return null;
  const required = pos.length === 1 ? pos[0] : `(${pos.join(' AND ')})`;
  return neg.length === 0 ? required : `${required} NOT (${neg.join(' OR ')})`;
}

/** Only the exclusions of one index, OR-ed (to subtract their rows), or null. */
export function exclusionExpression(terms: QueryTerm[], index: QueryTerm['index'], exact = false): string | null {
  const neg = terms.filter((t) => t.index === index && indexExcludable(t, exact)).map((t) => phraseFor(t, exact));
  return neg.length === 0 ? null : neg.join(' OR ');
}

/** Only the required terms of one index, AND-ed, or null. */
export function requiredExpression(terms: QueryTerm[], index: QueryTerm['index'], exact = false): string | null {
  const pos = terms.filter((t) => t.index === index && !t.exclude).map((t) => phraseFor(t, exact));
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
