import type Database from 'better-sqlite3';
import type { SearchSnippet } from '../../shared/api/search';
import type { RawLogEntry } from '../../shared/log-entry';
import { normalizeEntry } from '../ingest/normalize';
import { rawLines } from '../db/raw-lines';
import { companionIndexText } from '../ingest/companions';
import { termRegExp, textMatches } from './fts-match';
import { VALUE_SEPARATOR, foldWhitespace, indexedText, promptStrings, promptText } from './indexed-text';
import { statement } from '../db/statements';
import type { QueryTerm } from './query-parser';

export const SNIPPET_CHARS = 220;
/** How much text to keep before the first match, so that it reads in context. */
const LEAD_CHARS = 70;
const MAX_HIGHLIGHTS = 64;

/** Lines above this are not parsed for a snippet (a 10 MB tool result would cost a JSON.parse per search). */
export const MAX_PARSED_LINE = 1 << 20;
const RAW_WINDOW = 4000;

/**
 * The searchable text of one event, rebuilt from its archived line exactly as the indexer built it (the FTS
 * tables are contentless: the text lives once, in the archive). Null when the line is gone or unreadable.
 * For a line over MAX_PARSED_LINE, a window of the raw JSON around the first match, roughly unescaped: enough
 * for a snippet, without parsing megabytes.
 */
export function eventIndexedText(db: Database.Database, eventId: number, terms: QueryTerm[] = []): string | null {
  const raw = rawLines(db).text(eventId);
  if (raw === null) return null;
  try {
    if (raw.length > MAX_PARSED_LINE) return rawWindow(raw, terms);
    return indexedText(normalizeEntry(JSON.parse(raw) as RawLogEntry)).replaceAll(VALUE_SEPARATOR, ' ');
  } catch {
    return null;
  }
}

/** The first prompt string of a model call that matches the terms (the one the index found), rebuilt from its line. */
export function eventPromptText(db: Database.Database, eventId: number, terms: QueryTerm[] = []): string | null {
  const raw = rawLines(db).text(eventId);
  if (raw === null) return null;
  try {
    if (raw.length > MAX_PARSED_LINE) return rawWindow(raw, terms);
    const texts = promptStrings(normalizeEntry(JSON.parse(raw) as RawLogEntry)).map(promptText);
    return texts.find((t) => textMatches(t, terms)) ?? texts[0] ?? null;
  } catch {
    return null;
  }
}

/** A companion file's indexed text (its content lives in the archive's companions table). */
export function companionText(db: Database.Database, id: number): string {
  const row = statement(db, 'SELECT kind, content FROM companions WHERE id = ?').get(id) as { kind: string; content: string | null } | undefined;
  return row ? companionIndexText(row.kind, row.content).replaceAll(VALUE_SEPARATOR, ' ') : '';
}

function rawWindow(raw: string, terms: QueryTerm[]): string {
  let at = -1;
  for (const t of terms) {
    if (t.exclude) continue;
    const m = termRegExp(t.text).exec(raw);
    if (m && (at === -1 || m.index < at)) at = m.index;
  }
  const start = Math.max(0, at === -1 ? 0 : at - RAW_WINDOW / 2);
  const text = raw.slice(start, start + RAW_WINDOW).replace(/\\(["\\/])|\\[nrt]/g, (m, c: string | undefined) => c ?? ' ');
  return foldWhitespace(text);
}

/** Every match of the required terms in `text`, as sorted [start, end) ranges. */
export function matchRanges(text: string, terms: QueryTerm[], max = MAX_HIGHLIGHTS): [number, number][] {
  const ranges: [number, number][] = [];
  for (const t of terms) {
    if (t.exclude) continue;
    const re = termRegExp(t.text);
    let m: RegExpExecArray | null;
    let n = 0;
    while ((m = re.exec(text)) !== null && n < max) {
      ranges.push([m.index, m.index + m[0].length]);
      n++;
      if (m[0].length === 0) re.lastIndex++;
    }
  }
  return ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Moves a cut off the second half of a surrogate pair, so that a snippet never shows half a character. */
function safeCut(text: string, at: number): number {
  return at > 0 && at < text.length && isLowSurrogate(text.charCodeAt(at)) ? at + 1 : at;
}

/**
 * About `width` characters of `text` around its first match, with every match inside highlighted. A cut lands
 * on a space when one is near, so that words stay whole.
 */
export function makeSnippet(text: string, terms: QueryTerm[], width = SNIPPET_CHARS): SearchSnippet {
  const ranges = matchRanges(text, terms);
  if (text.length <= width) return { text, highlights: ranges, cutStart: false, cutEnd: false };
  const anchor = ranges[0]?.[0] ?? 0;
  let start = Math.max(0, anchor - LEAD_CHARS);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < anchor && space - start < 20) start = space + 1;
  }
  start = safeCut(text, start);
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + width - 30 && space > (ranges[0]?.[1] ?? 0)) end = space;
  }
  end = safeCut(text, end);
  const highlights = ranges
    .filter(([s, e]) => e > start && s < end)
    .map(([s, e]) => [Math.max(s, start) - start, Math.min(e, end) - start] as [number, number]);
  return { text: text.slice(start, end), highlights, cutStart: start > 0, cutEnd: end < text.length };
}
