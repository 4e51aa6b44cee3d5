import { createHash } from 'node:crypto';
import type { NormalizedEvent } from '../../shared/log-entry';
import { MAX_INDEXED_CHARS, cjkTokens, eventStrings, hasCjk, promptStrings, textOfStrings } from '../search/indexed-text';
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
  /** an llm_request's prompt strings (promptStrings): stored once per session (IngestStore.writePrompt) */
  prompts: string[];
  /**
   * The strings of a user message, response or tool call, as written: a model call's prompt repeats them, and a
   * prompt string the session's events already hold need not be indexed again (IngestStore.writePrompt).
   */
  said: string[];
}

const SAID_TYPES = new Set(['user_message', 'agent_response', 'tool_call']);

/** 8 bytes of SHA-1: a collision among a session's few thousand messages is out of reach. */
export function promptHash(text: string): Buffer {
  return createHash('sha1').update(text).digest().subarray(0, 8);
}

/** Which writer's file a line comes from: a debug log, or a Copilot CLI events.jsonl (INTEROP §3). */
export type LineFormat = 'debug-log' | 'cli';

export const lineFormatOf = (fileKind: string): LineFormat => (fileKind === 'cli' ? 'cli' : 'debug-log');

/** Decode, parse, normalize and extract the searchable text of one complete line. Never throws. */
export function processLine(line: RawLine, format: LineFormat = 'debug-log'): ProcessedLine {
  const base = { byteOffset: line.byteOffset, bytes: line.bytes, event: null, text: '', cjk: '', prompts: [], said: [] };
  if (line.tooLong) return { ...base, kind: LINE_BAD, reason: 'line longer than 64 MiB (skipped)' };
  const parsed = parseLine(decodeLine(line.bytes));
  if (!parsed.ok) return { ...base, kind: LINE_BAD, reason: parsed.reason };
  // Every entry the logger writes has a type (FORMAT §3); an object without one is not an entry, and counting it
  // would make a session's events differ from what `jq 'select(.type)'` counts in the same file.
  if (typeof parsed.entry.type !== 'string' || parsed.entry.type === '') return { ...base, kind: LINE_BAD, reason: 'a JSON object with no "type"' };
  if (format === 'cli') {
    const problem = cliEnvelopeProblem(parsed.entry);
    if (problem !== null) return { ...base, kind: LINE_BAD, reason: problem };
  }
  let event: NormalizedEvent;
  let text: string;
  let prompts: string[];
  let said: string[] = [];
  try {
    event = normalizeEntry(parsed.entry);
    const strings = eventStrings(event);
    text = textOfStrings(strings);
    prompts = promptStrings(event);
    // a text cut at MAX_INDEXED_CHARS does not hold all its strings: nothing it said may be skipped elsewhere
    if (SAID_TYPES.has(event.type) && text.length < MAX_INDEXED_CHARS) said = strings;
  } catch (err) {
    // Pathological shapes (100,000 levels of nesting) must cost one bad line, not the indexer.
    return { ...base, kind: LINE_BAD, reason: `unusable entry: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { ...base, kind: LINE_EVENT, reason: null, event, text, cjk: hasCjk(text) ? cjkTokens(text) : '', prompts, said };
}
