import type { NormalizedEvent } from '../../shared/log-entry';

/** Longest text one event contributes to the search index; longer values are indexed up to here. */
export const MAX_INDEXED_CHARS = 256 * 1024;

const WHITESPACE_RUN = /\s+/g;

/**
 * Whitespace runs fold to one space on both sides of the index (text here, queries in the planner), so that the
 * words of a phrase match across line breaks and indentation, as the literal text filter in seed 002 does.
 */
export function foldWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim();
}

function s(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/**
 * The assistant text of an `agent_response.response` (with the tool calls it asked for, when wanted); the raw
 * string when Copilot's 5,000-char cut broke the JSON, so nothing readable is lost.
 */
export function responseText(response: unknown, includeToolCalls = true): string {
  if (typeof response !== 'string') return '';
  try {
    const messages: unknown = JSON.parse(response);
    if (!Array.isArray(messages)) return response;
    const out: string[] = [];
    for (const m of messages) {
      const parts = (m as { parts?: unknown })?.parts;
      if (!Array.isArray(parts)) continue;
      for (const p of parts) {
        const part = p as { type?: unknown; content?: unknown; name?: unknown; arguments?: unknown };
        if (part.type === 'text' || part.type === 'reasoning') out.push(s(part.content));
        else if (part.type === 'tool_call' && includeToolCalls) out.push(`${s(part.name)} ${s(part.arguments)}`);
      }
    }
    return out.join('\n');
  } catch {
    return response;
  }
}

/**
 * Attributes that repeat the conversation in every model call: `inputMessages` (the whole prompt, on every
 * request) and `userRequest` (the user's message, on every tool-loop iteration). Their text is indexed once per
 * session and distinct message (promptMessages, the prompt_docs table), not once per event.
 */
export const PROMPT_ATTRS: ReadonlySet<string> = new Set(['inputMessages', 'userRequest']);

/** Entry names that only repeat the type (`user_message`, `turn_start:3`…): nothing a person would search for. */
function nameIsType(ev: NormalizedEvent): boolean {
  return ev.name === ev.rawType || ev.type === 'turn_start' || ev.type === 'turn_end';
}

const JSON_ESCAPE = /\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g;
const ESCAPED: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** JSON string escapes decoded where they stand, for text that is JSON but does not parse (a cut value). */
export function unescapeJsonText(text: string): string {
  return text.replace(JSON_ESCAPE, (_, e: string) => (e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : ESCAPED[e]));
}

/**
 * A value as the index holds it. A string is itself, unless it is JSON (an object or array that parses):
 * then its JSON text with every string in it decoded in place, at any depth (a JSON string inside a JSON
 * string, like a tool call's `arguments` in a response, is decoded in turn). So both what grep finds in the
 * line (`"filePath":"/w/a.ts"`) and what the detail pane shows (a message with real line breaks and quotes)
 * are substrings of it. JSON that does not parse (cut at 5,000 characters) is indexed with its escapes decoded.
 */
export function readableValue(v: unknown): string {
  if (typeof v === 'string') {
    if (!looksLikeJson(v)) return v;
    try {
      return jsonText(JSON.parse(v) as unknown);
    } catch {
      return unescapeJsonText(v);
    }
  }
  if (v !== null && typeof v === 'object') return jsonText(v);
  return '';
}

function looksLikeJson(v: string): boolean {
  const c = v.charCodeAt(v.search(/\S/));
  return c === 0x7b || c === 0x5b; // { or [
}

/** JSON.stringify's layout with strings written decoded (and JSON strings expanded), not escaped. */
function jsonText(v: unknown): string {
  if (typeof v === 'string') return `"${readableValue(v)}"`;
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) if (x !== undefined) parts.push(`"${k}":${jsonText(x)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/**
 * Between the values of one event: not whitespace (folding keeps it) and never typed, so that a phrase cannot
 * match across two values ("…search" + "index…" is not "search index"). Snippets show it as a space.
 */
export const VALUE_SEPARATOR = '\u001f';

function capped(text: string): string {
  const folded = foldWhitespace(text);
  return folded.length > MAX_INDEXED_CHARS ? folded.slice(0, MAX_INDEXED_CHARS) : folded;
}

/**
 * What of an event is searchable, by one rule: every string a person can see in the entry, which is its name
 * (unless it only repeats the type) and every string attribute (nested objects of other writers included),
 * each through readableValue. Numbers and booleans are not text (tokens, durations: columns and filters).
 * The exceptions are PROMPT_ATTRS, indexed once per session by promptMessages.
 */
export function indexedText(ev: NormalizedEvent): string {
  const parts: string[] = [];
  if (!nameIsType(ev) && ev.name !== '') parts.push(ev.name);
  for (const [k, v] of Object.entries(ev.attrs)) {
    if (PROMPT_ATTRS.has(k)) continue;
    const text = readableValue(v);
    if (text !== '') parts.push(text);
  }
  return capped(parts.join(VALUE_SEPARATOR));
}

/**
 * The prompt texts of an `llm_request`: `userRequest`, and each message of `inputMessages` on its own (the
 * unit of deduplication: a conversation of n messages costs n rows, not n²/2). `inputMessages` cut by OTel at
 * 64,000 characters is no longer JSON: its complete messages are still read one by one, and the cut last one
 * is kept as text.
 */
export function promptMessages(ev: NormalizedEvent): string[] {
  if (ev.type !== 'llm_request') return [];
  const out: string[] = [];
  const request = ev.attrs.userRequest;
  if (typeof request === 'string' && request.trim() !== '') out.push(capped(request));
  const messages = ev.attrs.inputMessages;
  if (typeof messages === 'string') for (const m of splitJsonArray(messages)) out.push(capped(m));
  else if (Array.isArray(messages)) for (const m of messages) out.push(capped(jsonText(m)));
  return out.filter((m) => m !== '');
}

/**
 * The elements of a JSON array text, each as readableValue would show it; an element the text ends inside
 * (the OTel cut) as its escapes-decoded text. A value that is not an array is one element.
 */
export function splitJsonArray(text: string): string[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? parsed.map((m) => (typeof m === 'string' ? readableValue(m) : jsonText(m))) : [readableValue(text)];
  } catch {
    // fall through: the cut array
  }
  const start = text.indexOf('[');
  if (start === -1) return [unescapeJsonText(text)];
  const out: string[] = [];
  let depth = 0;
  let inString = false;
  let from = -1;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      if (depth === 0 && from === -1) from = i;
    } else if (c === 0x7b || c === 0x5b) {
      if (depth === 0) from = i;
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0 && from !== -1) {
        out.push(readableValue(text.slice(from, i + 1)));
        from = -1;
      } else if (depth < 0) break; // the array's own end
    } else if (c === 0x2c && depth === 0 && from !== -1) {
      out.push(readableValue(text.slice(from, i))); // a scalar element
      from = -1;
    }
  }
  if (from !== -1) out.push(unescapeJsonText(text.slice(from)));
  return out;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The CJK characters of a text as one token each, for the short-CJK index: FTS5's trigram tokenizer cannot
 * answer 1–2 character queries, and unicode61 glues a CJK run into one token. Runs that were not adjacent are
 * kept apart by a `0` token so that a two-character phrase never matches across other text.
 */
export function cjkTokens(text: string): string {
  const runs: string[] = [];
  for (const m of text.matchAll(CJK_RUN)) runs.push(Array.from(m[0]).join(' '));
  return runs.join(' 0 ');
}

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}
