import { sha1Digest } from './sha1-digest';
import type { NormalizedEvent } from '../../shared/log-entry';
import { MAX_INDEXED_CHARS, cjkIndexText, eventStrings, promptParts, textOfStrings } from '../search/indexed-text';
import { forgetParsedJson, recordParsedJson } from '../search/parsed-json';
import { cliEnvelopeProblem } from './cli/normalize-cli';
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
  /**
   * An llm_request's prompt as written (promptParts): its strings are indexed once per session, by the search thread
   * (server/search-index/session-prompts.ts)
   */
  promptParts: string[];
  /**
   * Whether `text` is the strings of a user message, response or tool call, all of them: a model call's prompt
   * repeats them, and a prompt string the session's events already hold need not be indexed again (the search thread
   * keys them from `text`: session-prompts.ts).
   */
  said: boolean;
}

const SAID_TYPES = new Set(['user_message', 'agent_response', 'tool_call']);

/**
 * 8 bytes of SHA-1: a collision among a session's few thousand messages is out of reach.
 */
export function promptHash(text: string): Buffer {
  return sha1Digest(text).subarray(0, 8);
}

/** Which writer's file a line comes from: a debug log, or a Copilot CLI events.jsonl (INTEROP §3). */
export type LineFormat = 'debug-log' | 'cli';

export const lineFormatOf = (fileKind: string): LineFormat => (fileKind === 'cli' ? 'cli' : 'debug-log');

// Frozen: a line without prompt parts shares it, so a push anywhere would be a bug (and throws).
const NO_STRINGS = Object.freeze([]) as unknown as string[];

/**
 * Every ProcessedLine is built here, its fields always in one order: the writer then sees objects of one shape
 * (a `{ ...base, kind }` spread per outcome gave each its own, and cost a copy of the base per line).
 */
function processed(line: RawLine, kind: ProcessedLine['kind'], reason: string | null, event: NormalizedEvent | null = null, text = '', cjk = '', parts = NO_STRINGS, said = false): ProcessedLine {
  return { byteOffset: line.byteOffset, kind, reason, bytes: line.bytes, event, text, cjk, promptParts: parts, said };
}

/** Decode, parse, normalize and extract the searchable text of one complete line. Never throws. */
export function processLine(line: RawLine, format: LineFormat = 'debug-log'): ProcessedLine {
  forgetParsedJson();
  if (line.tooLong) return processed(line, LINE_BAD, 'line longer than 64 MiB (skipped)');
  const parsed = parseLine(decodeLine(line.bytes));
  if (!parsed.ok) return processed(line, LINE_BAD, parsed.reason);
  // Every entry the logger writes has a type (FORMAT §3); an object without one is not an entry, and counting it
  // would make a session's events differ from what `jq 'select(.type)'` counts in the same file.
  if (typeof parsed.entry.type !== 'string' || parsed.entry.type === '') return processed(line, LINE_BAD, 'a JSON object with no "type"');
  if (format === 'cli') {
    const problem = cliEnvelopeProblem(parsed.entry);
    if (problem !== null) return processed(line, LINE_BAD, problem);
  }
  let event: NormalizedEvent;
  let text: string;
  let parts: string[];
  let said = false;
  try {
    const e = (event = normalizeEntry(parsed.entry));
    // the JSON values this walk parses are kept for the line's derivations (parsed-json.ts)
    const strings = recordParsedJson(() => eventStrings(e));
    text = textOfStrings(strings);
    // the prompt is walked by the search thread: nothing is parsed for it here
    parts = promptParts(e);
    // a text cut at MAX_INDEXED_CHARS does not hold all its strings: nothing it said may be skipped elsewhere
    said = SAID_TYPES.has(event.type) && text.length < MAX_INDEXED_CHARS && strings.length > 0;
  } catch (err) {
    // Pathological shapes (100,000 levels of nesting) must cost one bad line, not the indexer.
    return processed(line, LINE_BAD, `unusable entry: ${err instanceof Error ? err.message : String(err)}`);
  }
  return processed(line, LINE_EVENT, null, event, text, cjkIndexText(text), parts, said);
}
