import type { NormalizedEvent } from '../../shared/log-entry';
import { cjkTokens, hasCjk, indexedText } from '../search/indexed-text';
import { normalizeEntry } from './normalize';
import { decodeLine, parseLine } from './parse-line';
import type { RawLine } from './read-lines';

export const LINE_EVENT = 0;
export const LINE_BAD = 1;
export const LINE_FRAGMENT = 2;

export interface ProcessedLine {
  byteOffset: number;
  kind: typeof LINE_EVENT | typeof LINE_BAD | typeof LINE_FRAGMENT;
  reason: string | null;
  /** the line's bytes as read (without its newline): what the archive keeps */
  bytes: Buffer;
  event: NormalizedEvent | null;
  text: string;
  cjk: string;
}

/** Decode, parse, normalize and extract the searchable text of one complete line. Never throws. */
export function processLine(line: RawLine): ProcessedLine {
  const base = { byteOffset: line.byteOffset, bytes: line.bytes, event: null, text: '', cjk: '' };
  if (line.tooLong) return { ...base, kind: LINE_BAD, reason: 'line longer than 64 MiB (skipped)' };
  const parsed = parseLine(decodeLine(line.bytes));
  if (!parsed.ok) return { ...base, kind: LINE_BAD, reason: parsed.reason };
  let event: NormalizedEvent;
  let text: string;
  try {
    event = normalizeEntry(parsed.entry);
    text = indexedText(event);
  } catch (err) {
    // Pathological shapes (100,000 levels of nesting) must cost one bad line, not the indexer.
    return { ...base, kind: LINE_BAD, reason: `unusable entry: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ...base, kind: LINE_EVENT, reason: null, event, text, cjk: hasCjk(text) ? cjkTokens(text) : '' };
}
