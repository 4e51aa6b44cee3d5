import zlib from 'node:zlib';
import type { NormalizedEvent } from '../../shared/log-entry';
import { cjkTokens, hasCjk, indexedText } from '../search/indexed-text';
import { normalizeEntry } from './normalize';
import { decodeLine, parseLine } from './parse-line';
import type { RawLine } from './read-lines';

/** Lines at least this long are stored deflated: they are few (inputMessages, big results) but most of the bytes. */
export const COMPRESS_FROM_BYTES = 2048;

export const LINE_EVENT = 0;
export const LINE_BAD = 1;
export const LINE_FRAGMENT = 2;

export interface ProcessedLine {
  byteOffset: number;
  kind: typeof LINE_EVENT | typeof LINE_BAD | typeof LINE_FRAGMENT;
  reason: string | null;
  raw: Buffer;
  compressed: boolean;
  event: NormalizedEvent | null;
  text: string;
  cjk: string;
}

export function storeRaw(bytes: Buffer): { raw: Buffer; compressed: boolean } {
  if (bytes.length < COMPRESS_FROM_BYTES) return { raw: bytes, compressed: false };
  return { raw: zlib.deflateRawSync(bytes, { level: 3 }), compressed: true };
}

export function loadRaw(raw: Buffer, compressed: number | boolean): string {
  return (compressed ? zlib.inflateRawSync(raw) : raw).toString('utf8');
}

/** Decode, parse, normalize and extract the searchable text of one complete line. Never throws. */
export function processLine(line: RawLine): ProcessedLine {
  const { raw, compressed } = storeRaw(line.bytes);
  const base = { byteOffset: line.byteOffset, raw, compressed, event: null, text: '', cjk: '' };
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
