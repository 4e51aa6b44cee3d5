import type { RawLogEntry } from '../../shared/log-entry';

export type ParsedLine = { ok: true; entry: RawLogEntry } | { ok: false; reason: string };

const decoder = new TextDecoder('utf-8', { fatal: false });

const NUL_BYTES: ParsedLine = Object.freeze({ ok: false, reason: 'contains NUL bytes (binary garbage)' });

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
  const first = trimmed.charCodeAt(0);
  if (first !== 0x7b /* { */) {
    if (trimmed.includes('\u0000')) return NUL_BYTES;
    return { ok: false, reason: first === 0x5b ? 'a JSON array, not an object' : describeNonObject(trimmed) };
  }
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    // Looked for only here: JSON never holds a raw NUL (a string must escape it), so a line that parsed has none.
    if (trimmed.includes('\u0000')) return NUL_BYTES;
    return { ok: false, reason: `invalid JSON: ${shortMessage(err)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'not a JSON object' };
  }
  // indexOf first: a plain search for `\u`, which most lines lack, is cheaper than the regex's scan.
  if (trimmed.indexOf('\\u') !== -1 && SURROGATE_ESCAPE.test(trimmed)) replaceLoneSurrogates(value as Record<string, unknown>);
  return { ok: true, entry: value as RawLogEntry };
}

// Copilot's 5,000-character cut can split a surrogate pair, leaving an escaped half (`\ud83d`) in the line.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * Replaces lone surrogates in every string of a parsed line with U+FFFD (String#toWellFormed), so that no half
 * character reaches SQLite or the UI. Iterative: a line may nest 100,000 levels deep.
 */
function replaceLoneSurrogates(root: Record<string, unknown>): void {
  const stack: (Record<string, unknown> | unknown[])[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (typeof v === 'string') node[key] = (v as string & { toWellFormed(): string }).toWellFormed();
      else if (v !== null && typeof v === 'object') stack.push(v as Record<string, unknown>);
    }
  }
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
