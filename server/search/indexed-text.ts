import { MAX_JSON_DEPTH } from '../../shared/json-depth';
import type { NormalizedEvent } from '../../shared/log-entry';
import { rememberParsedJson } from './parsed-json';

/** Longest text one event contributes to the search index; longer values are indexed up to here. */
export const MAX_INDEXED_CHARS = 256 * 1024;

/**
 * A whitespace run that is not already one plain space: what `\s+` → ' ' changes. Most whitespace in text is a
 * single space, which `\s+` matched and replaced by itself, building a new string piece by piece for each.
 */
const WHITESPACE_TO_FOLD = /\s\s+|[^\S ]/g;

/**
 * Whitespace runs fold to one space on both sides of the index (text here, queries in the planner), so that the
 * words of a phrase match across line breaks and indentation, as the literal text filter in seed 002 does.
 */
export function foldWhitespace(text: string): string {
  return text.replace(WHITESPACE_TO_FOLD, ' ').trim();
}

/**
 * The readable text of an `agent_response.response` (text and reasoning parts), for exports; the raw string when
 * Copilot's 5,000-char cut broke the JSON, so nothing readable is lost. (Chronicle's turns take only the text
 * parts and NULL for a cut response: server/ingest/assistant-text.ts.)
 */
export function responseText(response: unknown): string {
  if (typeof response !== 'string') return '';
  try {
    const messages: unknown = JSON.parse(response);
    if (!Array.isArray(messages)) return response;
    const out: string[] = [];
    for (const m of messages) {
      const parts = (m as { parts?: unknown })?.parts;
      if (!Array.isArray(parts)) continue;
      for (const p of parts) {
        const part = p as { type?: unknown; content?: unknown };
        if ((part.type === 'text' || part.type === 'reasoning') && typeof part.content === 'string') out.push(part.content);
      }
    }
    return out.join('\n');
  } catch {
    return response;
  }
}

/**
 * Attributes that repeat the conversation in every model call: `inputMessages` (the whole prompt, on every
 * request) and `userRequest` (the user's message, on every tool-loop iteration). Their strings are indexed once
 * per session (promptStrings, the prompt_docs table), not once per event.
 */
export const PROMPT_ATTRS: ReadonlySet<string> = new Set(['inputMessages', 'userRequest']);

/** Entry names that only repeat the type (`user_message`, `turn_start:3`…): nothing a person would search for. */
function nameIsType(ev: NormalizedEvent): boolean {
  return ev.name === ev.rawType || ev.type === 'turn_start' || ev.type === 'turn_end';
}

/**
 * Every string value in a value, at any depth, as a reader sees it: a string is itself unless it is JSON (an
 * object or array), which gives the string values inside it, decoded, and a JSON string inside JSON, like a
 * tool call's `arguments` in a response, in turn. Keys are names, not values: left out, they were 16% of the
 * text (`filePath`, `hookEventName`… in every call) and would find every session. JSON
 * cut short (5,000 characters, or OTel's 64,000, with their markers) gives its string tokens, the cut last one
 * included; anything else that does not parse is itself. Numbers and booleans are not text.
 */
export function valueStrings(v: unknown, out: string[] = [], depth = 0): string[] {
  // As deep as the detail pane shows (MAX_JSON_DEPTH); deeper is marked there and not text here, and a walk
  // of 5,000 levels would overflow the stack and cost the whole line.
  if (depth > MAX_JSON_DEPTH) return out;
  if (typeof v === 'string') {
    if (!looksLikeJson(v)) out.push(v);
    // Checked before parsing: text ending in a cut marker is never valid JSON (no JSON value ends in `d]` or
    // `s]`), and the SyntaxError the parse would throw costs more than the parse. Cut prose in brackets
    // ("[ERROR] build failed…[truncated]") is prose: its string tokens would be none of its words.
    else if (isCut(v)) {
      if (startsAsJson(v)) for (const t of cutJsonStrings(v)) valueStrings(t, out, depth + 1);
      else out.push(v);
    } else {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        out.push(v); // prose in brackets ("[ERROR] build failed"), or JSON broken some other way: as written
        return out;
      }
      rememberParsedJson(v, parsed);
      valueStrings(parsed, out, depth);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) valueStrings(x, out, depth + 1);
  } else if (v !== null && typeof v === 'object') {
    // for…in rather than Object.values: the same own keys in the same order (a parsed value's prototype is
    // Object.prototype, nothing enumerable), without an array per object.
    const o = v as Record<string, unknown>;
    for (const k in o) valueStrings(o[k], out, depth + 1);
  }
  return out;
}

function looksLikeJson(v: string): boolean {
  const first = v.charCodeAt(0);
  // Most strings start with a printable ASCII character: no search for the first non-whitespace one.
  const c = first > 0x20 && first < 0x7f ? first : v.charCodeAt(v.search(/\S/));
  return c === 0x7b || c === 0x5b; // { or [
}

/** The two cuts of FORMAT §3.4: the logger's `[truncated]` at 5,000 characters and OTel's suffix at 64,000. */
const CUT_MARKER = /(?:\[truncated\]|\.\.\.\[truncated, original \d+ chars\])$/;

/**
 * Whether text that looks like JSON (looksLikeJson) begins as a JSON value does: `{` then a key or `}`, `[` then a
 * value or `]`, after JSON's own whitespace only. A cut value cannot be parsed to tell, and prose in brackets
 * ("[ERROR] build failed", "[note] …", "{placeholder} is undefined") begins otherwise.
 */
function startsAsJson(v: string): boolean {
  let i = skipJsonSpace(v, 0);
  const open = v[i];
  if (open !== '{' && open !== '[') return false;
  i = skipJsonSpace(v, i + 1);
  if (i === v.length) return true;
  const c = v[i];
  if (open === '{') return c === '"' || c === '}';
  if ('"{[]-0123456789'.includes(c)) return true;
  for (const literal of ['true', 'false', 'null']) {
    if (!v.startsWith(literal, i)) continue;
    const after = skipJsonSpace(v, i + literal.length);
    return after === v.length || v[after] === ',' || v[after] === ']';
  }
  return false;
}

function skipJsonSpace(v: string, i: number): number {
  while (i < v.length && (v[i] === ' ' || v[i] === '\n' || v[i] === '\r' || v[i] === '\t')) i++;
  return i;
}

function isCut(v: string): boolean {
  // endsWith first: the regex alone tries every `[` and `.` of the text.
  return v.endsWith('[truncated]') || (v.endsWith(' chars]') && CUT_MARKER.test(v));
}

const STRING_TOKEN = /"((?:[^"\\]|\\.)*)(?:"|\\?$)/g;

/** The string tokens of JSON text that does not parse, decoded; the last one may be unterminated. */
function cutJsonStrings(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(STRING_TOKEN)) out.push(decodeJsonString(m[1]));
  return out;
}

function decodeJsonString(body: string): string {
  // No escape: the string is its own decoding (JSON.parse gives it back; a raw control character fails the
  // parse, and the fallback below changes only escapes).
  if (body.indexOf('\\') === -1) return body;
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    // a cut \u escape or a raw control character: decode what can be
    return body.replace(/\\(["\\/])/g, '$1').replace(/\\[nrt]/g, ' ');
  }
}

/**
 * Between the strings of one event: not whitespace (folding keeps it) and never typed, so that a phrase cannot
 * match across two of them ("…search" + "index…" is not "search index"). Snippets show it as a space.
 */
export const VALUE_SEPARATOR = '\u001f';

function capped(text: string): string {
  const folded = foldWhitespace(text);
  return folded.length > MAX_INDEXED_CHARS ? folded.slice(0, MAX_INDEXED_CHARS) : folded;
}

/**
 * The strings of an event a person can see, by one rule: its name (unless it only repeats the type) and the
 * strings of every attribute (valueStrings: at any depth, nested objects of other writers included), except
 * PROMPT_ATTRS, which promptStrings gives.
 */
export function eventStrings(ev: NormalizedEvent): string[] {
  const out: string[] = [];
  if (!nameIsType(ev) && ev.name !== '') out.push(ev.name);
  // for…in, as valueStrings walks objects: Object.entries built a [key, value] array per attribute of every
  // event (57 of the 1,080 MB an ingest of the held-out corpus allocated).
  const attrs = ev.attrs;
  for (const k in attrs) if (!PROMPT_ATTRS.has(k)) valueStrings(attrs[k], out);
  return out;
}

/** What of an event is searchable: its strings (eventStrings), folded, one separator between two. */
export function indexedText(ev: NormalizedEvent): string {
  return textOfStrings(eventStrings(ev));
}

export function textOfStrings(strings: string[]): string {
  return capped(strings.join(VALUE_SEPARATOR));
}

/**
 * The prompt of an `llm_request` as written: the values of `userRequest` and `inputMessages`, each as a string (a
 * string as it is, an object or array as its JSON; nothing for a number, a boolean or null, which hold no text).
 * Taking them costs the ingest nothing: the search thread walks them (promptStringsOf) and decides which strings
 * its session has not indexed yet (server/search-index/session-prompts.ts). Walking them on the ingest thread, with
 * the hash and the row of each new one, was ~8% of it (issue 19.1).
 */
export function promptParts(ev: NormalizedEvent): string[] {
  if (ev.type !== 'llm_request') return NO_PARTS;
  let parts: string[] | null = null;
  for (const k of PROMPT_ATTRS) {
    const v = ev.attrs[k];
    const part = typeof v === 'string' ? v : v !== null && typeof v === 'object' ? JSON.stringify(v) : '';
    if (part !== '') (parts ??= []).push(indexedPromptPart(part));
  }
  return parts ?? NO_PARTS;
}

/** A prompt part longer than this, and not JSON, goes to the search thread cut (indexedPromptPart). */
export const LONG_PROMPT_PART_CHARS = 1024 * 1024;

/**
 * A prompt part as the search thread needs it. Of a string the index keeps only its first MAX_INDEXED_CHARS
 * characters once folded (promptText), but a `userRequest` is never truncated (FORMAT.md) and every model call of a
 * turn repeats it: a pasted file of megabytes was copied into the search rows, cloned to the search thread and
 * folded there whole, once per call (the 1.6 GiB bench corpus's 2.6 M-character one allocated ~11 MB on each side).
 * So a part over LONG_PROMPT_PART_CHARS that is not JSON (whose strings valueStrings would take from inside it) is
 * cut to the first of the prefixes of MAX_INDEXED_CHARS + 2, twice that, … characters that folds to more than
 * MAX_INDEXED_CHARS + 1: folding a prefix gives a prefix of the whole string's folding but for its last character
 * (a whitespace run cut in two, then trimmed), so both cap to the same text, its key and hash with it.
 */
export function indexedPromptPart(part: string): string {
  if (part.length <= LONG_PROMPT_PART_CHARS || looksLikeJson(part)) return part;
  for (let n = MAX_INDEXED_CHARS + 2; n < part.length; n *= 2) {
    const prefix = part.slice(0, n);
    if (foldWhitespace(prefix).length > MAX_INDEXED_CHARS + 1) return prefix;
  }
  return part;
}

// Frozen: shared by every event without a prompt.
const NO_PARTS = Object.freeze([]) as unknown as string[];

/**
 * The strings of a prompt's parts (promptParts), as written (valueStrings: a JSON part gives the strings inside
 * it). A string is the unit a session keeps once: a conversation of n messages costs each new message's strings,
 * not the whole conversation on every call. A string may come twice (userRequest is also the last user message):
 * every reader skips a repeat (SessionPrompts' known keys and the unique prompt_docs row).
 */
export function promptStringsOf(parts: readonly string[]): string[] {
  const found: string[] = [];
  for (const p of parts) valueStrings(p, found);
  return found;
}

/** The prompt strings of an `llm_request` (promptParts, walked): what the search thread indexes once per session. */
export function promptStrings(ev: NormalizedEvent): string[] {
  return promptStringsOf(promptParts(ev));
}

/** A prompt string as the index holds it: folded, capped ('' when it is only whitespace). */
export function promptText(raw: string): string {
  return capped(raw);
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

/** What the short-CJK index holds for a text: its cjkTokens, '' when it has no CJK (no row). */
export function cjkIndexText(text: string): string {
  return hasCjk(text) ? cjkTokens(text) : '';
}
