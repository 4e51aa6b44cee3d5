import type { RawLogEntry } from '../../shared/log-entry';

export type ParsedLine = { ok: true; entry: RawLogEntry } | { ok: false; reason: string };

const decoder = new TextDecoder('utf-8', { fatal: false });

/** Decodes a line's bytes; invalid UTF-8 (a sequence split by a byte-offset cut, binary garbage) becomes U+FFFD. */
export function decodeLine(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * A tolerant parse of one complete line. Never throws: anything that is not a JSON object comes back with a
 * short human reason that the health page shows beside the file and line number.
 */
export function parseLine(text: string): ParsedLine {
  const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (trimmed.length === 0) return { ok: false, reason: 'empty line' };
  if (trimmed.includes('\u0000')) return { ok: false, reason: 'contains NUL bytes (binary garbage)' };
  const first = trimmed.charCodeAt(0);
  if (first !== 0x7b /* { */) {
    return { ok: false, reason: first === 0x5b ? 'a JSON array, not an object' : describeNonObject(trimmed) };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${shortMessage(err)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  return { ok: true, entry: value as RawLogEntry };
}

function describeNonObject(text: string): string {
  try {
    const v: unknown = JSON.parse(text);
    return `a JSON ${v === null ? 'null' : typeof v}, not an object`;
  } catch {
    return text.includes('\uFFFD') ? 'not JSON (invalid UTF-8)' : 'not JSON';
  }
}

function shortMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  // Node's messages embed the whole input for some errors; keep the reason short and bounded.
  return msg.length > 120 ? `${msg.slice(0, 117)}...` : msg;
}
