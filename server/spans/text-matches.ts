import type Database from 'better-sqlite3';
import type { SpanTree } from './span-tree';

const CJK_ONLY = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+$/u;

/** A literal FTS5 phrase: the text in double quotes, inner quotes doubled. User text never becomes syntax. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Events of the tree whose indexed text (the search index of issue 3) contains `q` (already folded and
 * lower-cased): the trigram index for three characters or more, the one-token-per-character index for one
 * or two CJK characters. Shorter Latin queries match names only (the trigram index cannot answer them).
 * Bounded to the tree's id range, so a common word in other sessions costs little.
 */
export function textMatches(db: Database.Database, tree: SpanTree, q: string): Set<number> {
  const out = new Set<number>();
  if (q === '' || tree.length === 0) return out;
  const [minId, maxId] = tree.idRange()!;
  const chars = Array.from(q);
  let sql: string;
  let phrase: string;
  if (chars.length >= 3) {
    sql = 'SELECT rowid FROM event_text WHERE event_text MATCH ? AND rowid BETWEEN ? AND ?';
    phrase = ftsPhrase(q);
  } else if (CJK_ONLY.test(q)) {
    sql = 'SELECT rowid FROM event_cjk WHERE event_cjk MATCH ? AND rowid BETWEEN ? AND ?';
    phrase = ftsPhrase(chars.join(' '));
  } else {
    return out;
  }
  const rows = db.prepare(sql).raw(true).all(phrase, minId, maxId) as [number][];
  for (const [id] of rows) if (tree.indexOf(id) !== undefined) out.add(id);
  return out;
}
