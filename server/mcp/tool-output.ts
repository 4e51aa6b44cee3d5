import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What one tool answer may hold, as Chronicle's own SQL tool allows (seed 000): a model's context is finite. */
export const DEFAULT_MAX_CHARS = 30_000;

/** Strings are cut to these lengths in turn, then list items dropped from the end, until the answer fits. */
const STRING_CUTS = [4000, 1000, 300, 120];
const NOTE_ROOM = 400;

export interface Bounded {
  /** the list that loses items from its end when cutting strings was not enough */
  listKey?: string;
  maxChars?: number;
}

function cutStrings(value: unknown, max: number, counter: { n: number }): unknown {
  if (typeof value === 'string') {
    if (value.length <= max) return value;
    counter.n++;
    return `${value.slice(0, max)}… [cut: ${value.length - max} more characters]`;
  }
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, max, counter));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cutStrings(v, max, counter);
    return out;
  }
  return value;
}

/**
 * A tool's answer: the payload as structured content and as JSON text, cut to `maxChars` with a `cut` field
 * saying what was left out (strings shortened, items dropped), so the model knows the answer is partial.
 */
export function boundedResult(payload: Record<string, unknown>, opts: Bounded = {}): CallToolResult {
  const max = opts.maxChars ?? DEFAULT_MAX_CHARS;
  let out: Record<string, unknown> = payload;
  let text = JSON.stringify(out);
  if (text.length <= max) return { content: [{ type: 'text', text }], structuredContent: out };
  // Once cutting, leave room for the note that says so.
  const room = max - NOTE_ROOM;
  let stringsCut = 0;
  let cutAt: number | null = null;
  for (const limit of STRING_CUTS) {
    if (text.length <= room) break;
    const counter = { n: 0 };
    out = cutStrings(payload, limit, counter) as Record<string, unknown>;
    stringsCut = counter.n;
    cutAt = limit;
    text = JSON.stringify(out);
  }
  let dropped = 0;
  const list = opts.listKey ? out[opts.listKey] : undefined;
  if (text.length > room && Array.isArray(list)) {
    const items = [...list];
    while (items.length > 0 && text.length > room) {
      // Drop in proportion to the excess so a 500-item list does not take 500 serialisations.
      const excess = Math.max(1, Math.floor((items.length * (text.length - room)) / text.length));
      items.splice(items.length - excess, excess);
      dropped += excess;
      out = { ...out, [opts.listKey!]: items };
      text = JSON.stringify(out);
    }
  }
  const note =
    `output cut to stay within ${max.toLocaleString('en-US')} characters:` +
    (stringsCut > 0 ? ` ${stringsCut} long values shortened to ${cutAt} characters;` : '') +
    (dropped > 0 ? ` the last ${dropped} of ${Array.isArray(list) ? list.length : '?'} ${opts.listKey} left out;` : '') +
    ' narrow the request (filters, limit, max_chars) or page with the cursor to see the rest';
  // No list to shorten and still too long (many small fields): the start of the JSON, marked as such.
  out = text.length > room ? { cut: note, partial_json: text.slice(0, room - note.length) } : { ...out, cut: note };
  text = JSON.stringify(out);
  return { content: [{ type: 'text', text }], structuredContent: out };
}

/** A failure the model can act on: the SDK shows it as a tool error (isError) with this one message. */
export class ToolInputError extends Error {}
