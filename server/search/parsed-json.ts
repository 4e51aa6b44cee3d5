/**
 * The JSON values valueStrings parsed out of the line being processed (indexed-text.ts), for the derivations that
 * read the same attributes again: an agent_response's `response` (assistant-text.ts) and a tool call's `args`
 * (derive-files-refs.ts). Parsing those a second time was ~0.9% of a backfill's ingest thread (issue 19.1).
 *
 * Found by `===`: a derivation passes the very string the walk parsed (the event's own attribute), whose reference
 * settles it at once. processLine empties the memo before each line, so a parsed tree lives no longer than its line
 * (a longer life would promote it into the old generation), and only its own walk records (recordParsedJson): the
 * other walks of valueStrings (search snippets and candidate checks on the read worker, a companion's text) kept their
 * first 16 values for the life of the thread, since no line there ever emptied the memo. At most MAX_REMEMBERED
 * values a line. One memo per thread (module state): lines are processed one at a time on it, and a line's
 * derivations run before the next line is processed.
 */
const MAX_REMEMBERED = 16;
const texts: string[] = [];
const values: unknown[] = [];
let recording = false;

/** Called by valueStrings for each JSON text it parsed; kept only inside recordParsedJson. */
export function rememberParsedJson(text: string, value: unknown): void {
  if (!recording || texts.length >= MAX_REMEMBERED) return;
  texts.push(text);
  values.push(value);
}

/** Runs `walk` (processLine's reading of a line's strings) with what valueStrings parses in it remembered. */
export function recordParsedJson<T>(walk: () => T): T {
  recording = true;
  try {
    return walk();
  } finally {
    recording = false;
  }
}

/** The value `text` parsed to on this line, or undefined when it was not parsed here (JSON never parses to undefined). */
export function parsedJsonOf(text: string): unknown {
  for (let i = 0; i < texts.length; i++) if (texts[i] === text) return values[i];
  return undefined;
}

/** The JSON value of `text`: the one valueStrings parsed on this line, else parsed now; undefined when it is not JSON. */
export function jsonValueOf(text: string): unknown {
  const known = parsedJsonOf(text);
  if (known !== undefined) return known;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Before each line: what the previous line parsed is forgotten. */
export function forgetParsedJson(): void {
  texts.length = 0;
  values.length = 0;
}
