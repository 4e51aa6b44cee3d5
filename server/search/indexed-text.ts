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
 * What of an event is searchable: what a person reads (messages, responses, reasoning, tool args and results,
 * errors, discovery and hook details, labels). Deliberately not `inputMessages` or `userRequest`: they repeat
 * the conversation in every model call and would multiply the index without finding a session more.
 */
export function indexedText(ev: NormalizedEvent): string {
  const a = ev.attrs;
  let parts: string[];
  switch (ev.type) {
    case 'user_message':
      parts = [s(a.content)];
      break;
    case 'agent_response':
      parts = [responseText(a.response), s(a.reasoning)];
      break;
    case 'tool_call':
      parts = [ev.name, s(a.args), s(a.result), s(a.error)];
      break;
    case 'llm_request':
      parts = [s(a.error)];
      break;
    case 'subagent':
      parts = [s(a.agentName), s(a.description), s(a.error)];
      break;
    case 'hook':
      parts = [ev.name, s(a.command), s(a.input), s(a.output), s(a.error)];
      break;
    case 'child_session_ref':
      parts = [s(a.label)];
      break;
    case 'session_start':
    case 'turn_start':
    case 'turn_end':
      parts = [];
      break;
    default: // discovery, generic, error, unknown
      parts = [ev.name, s(a.details), s(a.error), s(a.message)];
  }
  const text = foldWhitespace(parts.filter((p) => p !== '').join(' '));
  return text.length > MAX_INDEXED_CHARS ? text.slice(0, MAX_INDEXED_CHARS) : text;
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
