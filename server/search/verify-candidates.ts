import type Database from 'better-sqlite3';
import { rawLines } from '../db/raw-lines';
import { normalizeEntry } from '../ingest/normalize';
import { parseLine } from '../ingest/parse-line';
import { textMatches } from './fts-match';
import { indexedText } from './indexed-text';
import type { QueryTerm } from './query-parser';

/**
 * The searchable text of each event, exactly as the indexer built it (process-line.ts: parse, normalize,
 * indexedText), whatever the line's size: a verdict needs all of it, not a snippet's window.
 */
export function indexedTexts(db: Database.Database, ids: number[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const [id, raw] of rawLines(db).texts(ids)) {
    const parsed = parseLine(raw);
    if (!parsed.ok) continue;
    try {
      out.set(id, indexedText(normalizeEntry(parsed.entry)));
    } catch {
      /* the indexer kept it as a bad line: it has no indexed text */
    }
  }
  return out;
}

/**
 * The candidates of a query with a long term (fts-match.ts asked the index for its pieces) that match every
 * term in their whole indexed text, in the order given.
 */
export function verifyCandidates(db: Database.Database, ids: number[], terms: QueryTerm[]): number[] {
  const texts = indexedTexts(db, ids);
  return ids.filter((id) => {
    const text = texts.get(id);
    return text !== undefined && textMatches(text, terms);
  });
}
