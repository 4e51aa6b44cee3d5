import { formatCount, plural } from '../../shared/format-numbers';
import type Database from 'better-sqlite3';
import { sourceOf } from '../../shared/api';
import type { RawLogEntry } from '../../shared/log-entry';
import { isCliEnvelope } from '../ingest/cli/normalize-cli';
import { responseText } from '../search/indexed-text';
import { getSessionDetail } from '../sessions/session-detail';
import type { SpanEntry } from '../spans/span-tree';
import { sessionSpanPlan, type SpanLine } from './session-spans';

/** What `--max-chars` defaults to: a size that pastes into an issue and fits an LLM's context with room to spare. */
export const DEFAULT_MARKDOWN_CHARS = 30_000;

export interface MarkdownOptions {
  maxChars?: number;
  /** one span and what is under it ("Copy as Markdown" on a span); default: the whole session */
  eventId?: number;
  /** spans read at a time (tests set a small one) */
  readBatch?: number;
}

function dur(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return s < 3600 ? `${Math.floor(s / 60)} m ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} m`;
}
const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

/** A fenced block that no backtick run inside the text can close early. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text}\n${f}`;
}

/** A value cut to `max` characters with a marker that says how much is left out. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n… [cut: ${formatCount(text.length - max)} more characters]`;
}

function indentBlock(text: string, depth: number): string {
  const pad = '  '.repeat(depth);
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/**
 * The types a span makes an item of (spanBlock), besides an assistant's reply, which makes one when it has text: what
 * is left after a cut is counted by them without reading its lines.
 */
const ITEM_TYPES = new Set(['llm_request', 'tool_call', 'subagent', 'hook', 'user_message', 'discovery']);

/** One span as Markdown lines, indented by its depth under the request. */
function spanBlock(s: SpanLine, depth: number, valueChars: number): string | null {
  const e = s.entry;
  const a = s.attrs;
  const status = e.status === 1 ? ' · **error**' : '';
  const err = e.status === 1 && str(a.error) ? `\n  error: ${fence(cut(str(a.error), valueChars))}` : '';
  let text: string;
  switch (e.type) {
    case 'llm_request': {
      const tokens = e.tokensIn !== null || e.tokensOut !== null ? ` · ${e.tokensIn === null ? '?' : formatCount(e.tokensIn)} → ${e.tokensOut === null ? '?' : formatCount(e.tokensOut)} tokens${typeof a.cachedTokens === 'number' ? ` (${formatCount(a.cachedTokens)} cached)` : ''}` : '';
      text = `- **Model call** \`${e.model ?? e.name}\` · ${dur(e.dur)}${e.ttft !== null ? ` · TTFT ${dur(e.ttft)}` : ''}${tokens}${status}${err}`;
      // A Copilot CLI model call carries its answer (assistant.message content); a debug log writes it as agent_response.
      const answer = isCliEnvelope(s.raw as RawLogEntry) ? str(a.content).trim() : '';
      if (answer) text += `\n  **Assistant:**\n${indentBlock(cut(answer, valueChars), 1)}`;
      break;
    }
    case 'tool_call': {
      const args = str(a.args);
      const result = str(a.result);
      text =
        `- **Tool** \`${e.tool ?? e.name}\` · ${dur(e.dur)}${status}` +
        (args ? `\n  arguments:\n${indentBlock(fence(cut(args, valueChars), args.trimStart().startsWith('{') ? 'json' : ''), 1)}` : '') +
        (result ? `\n  result:\n${indentBlock(fence(cut(result, valueChars)), 1)}` : '') +
        err;
      break;
    }
    case 'subagent':
      text = `- **Subagent** ${str(a.agentName) || e.name} · ${dur(e.dur)}${status}${str(a.description) ? `: ${cut(str(a.description), valueChars)}` : ''}${err}`;
      break;
    case 'hook':
      text = `- **Hook** ${e.name} · ${dur(e.dur)} · ${str(a.resultKind) || 'done'}${status}${err}`;
      break;
    case 'agent_response': {
      const reply = responseText(a.response).trim();
      if (!reply) return null; // tool calls only: they follow as their own items
      text = `- **Assistant:**\n${indentBlock(cut(reply, valueChars), 1)}`;
      break;
    }
    case 'user_message':
      text = `- **User:** ${cut(str(a.content), valueChars)}`;
      break;
    case 'discovery':
      text = `- **${e.name}**${status}: ${cut(str(a.details), Math.min(valueChars, 400))}`;
      break;
    default:
      return null; // turn boundaries, refs, session starts, generic housekeeping: not for a reader
  }
  return indentBlock(text, depth);
}

/** Spans whose lines are read at a time: a few MB of lines at most. */
const READ_BATCH = 2000;

/**
 * A session for people and LLMs: its facts, then each request in order with the user's text, and under it
 * every model call (model, duration, TTFT, tokens), tool call (name, arguments, result, error), subagent (its
 * own calls nested) and the assistant's text. Cut at `maxChars` with a last line saying what was left out.
 */
export function exportMarkdown(db: Database.Database, sessionId: string, o: MarkdownOptions = {}): string | null {
  const plan = sessionSpanPlan(db, sessionId);
  const d = getSessionDetail(db, sessionId);
  if (!plan || !d) return null;
  const max = o.maxChars ?? DEFAULT_MARKDOWN_CHARS;
  const valueChars = Math.max(200, Math.min(2000, Math.floor(max / 12)));
  // The spans in scope, from the tree's columns: the lines are read a batch at a time, only as far as the text goes.
  let from = 0;
  let to = plan.length;
  let scope: SpanEntry | undefined;
  if (o.eventId !== undefined) {
    const at = plan.positionOf(o.eventId);
    if (at === null) return null;
    scope = plan.entry(at);
    const depth = plan.depth(at);
    from = at;
    to = at + 1;
    while (to < plan.length && plan.depth(to) > depth) to++;
  }
  const isRequest = (k: number) => !scope && plan.depth(k) === 0 && plan.type(k) === 'user_message';
  const head: string[] = [];
  if (scope) head.push(`# ${scope.name} in ${d.title ?? d.id}`, '', `Session \`${d.id}\` · event ${scope.id} · ${iso(scope.ts)}`, '');
  else {
    let requests = 0;
    for (let k = from; k < to; k++) if (isRequest(k)) requests++;
    const noShutdown = sourceOf(d) === 'cli' && d.usageComplete === false;
    const facts = [
      sourceOf(d) === 'cli' ? 'Copilot CLI' : null,
      d.repository ?? 'no repository',
      d.branch ? `branch ${d.branch}` : null,
      d.firstTs !== null ? `started ${iso(d.firstTs)}` : null,
      d.firstTs !== null && d.lastTs !== null ? `lasted ${dur(d.lastTs - d.firstTs)}` : null,
      plural(requests, 'request'),
      d.models.length ? `models ${d.models.join(', ')}` : null,
      noShutdown ? `${formatCount(d.tokensOut)} tokens out, no shutdown: totals unknown` : `${formatCount(d.tokensIn)} tokens in, ${formatCount(d.tokensOut)} out`,
      d.credits !== null && !noShutdown ? `${d.credits.toFixed(2)} AI credits` : null,
      d.errorCount ? plural(d.errorCount, 'error') : null,
    ].filter((x) => x);
    head.push(`# ${d.title ?? 'Untitled session'}`, '', `Session \`${d.id}\` · ${facts.join(' · ')}`, '');
  }
  const out = [head.join('\n')];
  let used = out[0].length;
  const noteRoom = 200;
  let shown = 0;
  let total = 0;
  let requestNo = 0;
  let requestsShown = 0;
  let base = scope ? plan.depth(from) : 0;
  const batch = o.readBatch ?? READ_BATCH;
  let k = from;
  for (; k < to; k += batch) {
    let cutOff = false;
    for (const [j, s] of plan.lines(k, Math.min(to, k + batch)).entries()) {
      let block: string | null;
      const request = isRequest(k + j);
      if (request) {
        requestNo++;
        base = 1;
        const text = str(s.attrs.content);
        block = `\n## Request ${requestNo} · ${iso(s.entry.ts)}\n\n${cut(text, valueChars * 2)
          .split('\n')
          .map((l) => `> ${l}`)
          .join('\n')}\n`;
      } else {
        block = spanBlock(s, Math.max(0, s.depth - base), valueChars);
      }
      if (block === null) continue;
      total++;
      if (cutOff) continue;
      if (used + block.length + 1 > max - noteRoom) {
        cutOff = true;
        continue;
      }
      out.push(block);
      used += block.length + 1;
      shown++;
      if (request) requestsShown = requestNo;
    }
    if (cutOff) break;
  }
  if (k < to) {
    // Cut: what is left is counted, not written. Whether a span makes an item depends on its type, and for an
    // assistant's reply on its text (a reply of tool calls only makes none): only those lines are read.
    const replies: number[] = [];
    for (let j = k + batch; j < to; j++) {
      const type = plan.type(j);
      if (isRequest(j)) requestNo++;
      if (type === 'agent_response') replies.push(j);
      else if (ITEM_TYPES.has(type)) total++;
    }
    for (let j = 0; j < replies.length; j += batch) {
      for (const s of plan.linesAt(replies.slice(j, j + batch))) if (responseText(s.attrs.response).trim()) total++;
    }
    out.push(`\n---\n*Cut at ${formatCount(max)} characters (--max-chars): ${formatCount(shown)} of ${plural(total, 'item')} shown${scope ? '' : ` (${formatCount(requestsShown)} of ${plural(requestNo, 'request')})`}; long values are cut at ${formatCount(valueChars)} characters.*`);
  }
  return out.join('\n') + '\n';
}
