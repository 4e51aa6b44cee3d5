// Copilot CLI `events.jsonl` lines (INTEROP §3) mapped onto the debug-log event shape, one line at a time.
// What needs an earlier line (a completion's start, a model call's turn start, the current user message) is
// named in `cli` and filled in by the store (link-cli.ts), which sees the session's events in the database.
import type { CliLink, EventType, NormalizedEvent, RawLogEntry } from '../../../shared/log-entry';

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The envelope rule (INTEROP §3): string `type`, `id` and `timestamp` and an object `data`. A line without them
 * is not an event (a bad line), so a session's event count is what `jq 'select(.type and .id and …)'` counts.
 */
export function isCliEnvelope(raw: RawLogEntry): boolean {
  return typeof raw.type === 'string' && raw.type !== '' && typeof raw.id === 'string' && typeof raw.timestamp === 'string' && isObject(raw.data);
}

/** Why a line of an events.jsonl is not an event, or null when it is one. */
export function cliEnvelopeProblem(raw: RawLogEntry): string | null {
  if (isCliEnvelope(raw)) return null;
  const missing = [
    typeof raw.type === 'string' && raw.type !== '' ? null : 'type',
    typeof raw.id === 'string' ? null : 'id',
    typeof raw.timestamp === 'string' ? null : 'timestamp',
  ].filter((x) => x !== null);
  return missing.length > 0 ? `a CLI line without string ${missing.join(', ')}` : 'a CLI line whose "data" is not an object';
}

/** Subagent spans sit beside the calls of the subagent, under the tool call that spawned it (INTEROP §3). */
export const subagentSpanId = (toolCallId: string) => `subagent-${toolCallId}`;
const hookSpanId = (id: string) => `hook-${id}`;
/** A turn start's span id: turn ids repeat across agents, so the agent is part of it. */
export const turnSpanId = (agentId: string | null, turnId: string) => `turn-${agentId ?? 'main'}-${turnId}`;

/** A CLI `error` (a string, or `{message, code}`) as text. */
export function errorText(v: unknown): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (isObject(v)) return str(v.message) ?? str(v.code) ?? JSON.stringify(v);
  return null;
}

function turnIdOf(d: Data): string | null {
  const t = d.turnId;
  return typeof t === 'number' && Number.isFinite(t) ? String(t) : str(t);
}

/**
 * One CLI event as a normalized event. The tree comes from `toolCallId`, `parentToolCallId`, `turnId` and
 * `agentId`, never from `parentId` (only the previous line in time). Starts of tools, subagents and hooks keep
 * their raw type (`tool.execution_start`…): the completion is the span (status, result, duration), and a start
 * left without one is shown as still running. Attributes are `data` whole, so every string is indexed.
 */
export function normalizeCliEvent(raw: RawLogEntry): NormalizedEvent {
  const rawType = raw.type as string;
  const d = raw.data as Data;
  const agentId = str(raw.agentId);
  const parsed = Date.parse(raw.timestamp as string);
  const ts = Number.isFinite(parsed) ? parsed : null;
  const cli: CliLink = { rawType, agentId };
  let type: EventType = 'generic';
  let name = rawType;
  let spanId: string | null = null;
  let parentSpanId: string | null = null;
  let status: 'ok' | 'error' = 'ok';
  let error: string | null = null;
  let model: string | null = null;
  let tool: string | null = null;
  let tokensOut: number | null = null;
  let dur = 0;
  const parentTool = str(d.parentToolCallId);

  switch (rawType) {
    case 'session.start':
      type = 'session_start';
      name = 'session_start';
      break;
    case 'user.message':
      type = 'user_message';
      name = 'user_message';
      spanId = raw.id as string;
      parentSpanId = parentTool;
      break;
    case 'assistant.turn_start':
    case 'assistant.turn_end': {
      type = rawType === 'assistant.turn_start' ? 'turn_start' : 'turn_end';
      const turnId = turnIdOf(d);
      name = turnId === null ? type : `${type}:${turnId}`;
      if (type === 'turn_start' && turnId !== null) spanId = turnSpanId(agentId, turnId);
      model = str(d.model);
      parentSpanId = parentTool;
      if (parentTool === null) cli.underCurrent = 'user';
      break;
    }
    case 'assistant.message': {
      type = 'llm_request';
      model = str(d.model);
      name = model === null ? 'assistant.message' : `chat:${model}`;
      spanId = raw.id as string;
      tokensOut = num(d.outputTokens);
      parentSpanId = parentTool;
      if (parentTool === null) cli.underCurrent = 'user';
      const turnId = turnIdOf(d);
      if (turnId !== null) cli.turn = turnSpanId(agentId, turnId);
      break;
    }
    case 'tool.execution_start':
      type = 'unknown';
      tool = str(d.toolName) ?? str(d.mcpToolName);
      name = tool ?? rawType;
      spanId = str(d.toolCallId);
      parentSpanId = parentTool;
      if (parentTool === null) cli.underCurrent = 'assistant';
      break;
    case 'tool.execution_complete':
      type = 'tool_call';
      // The completion names no tool: the store takes the name from its start (a name equal to the type is not text).
      tool = str(d.toolName);
      name = tool ?? rawType;
      spanId = str(d.toolCallId);
      parentSpanId = parentTool;
      if (d.success === false || (d.error !== undefined && d.error !== null && d.success !== true)) status = 'error';
      error = errorText(d.error);
      if (spanId !== null) cli.start = { spanId, type: 'tool.execution_start' };
      if (parentTool === null) cli.underCurrent = 'assistant';
      break;
    case 'subagent.started':
    case 'subagent.completed':
    case 'subagent.failed': {
      const call = str(d.toolCallId);
      type = rawType === 'subagent.started' ? 'unknown' : 'subagent';
      tool = str(d.agentName);
      name = tool ?? rawType;
      model = str(d.model);
      spanId = call === null ? null : subagentSpanId(call);
      parentSpanId = call;
      if (rawType === 'subagent.failed') {
        status = 'error';
        error = errorText(d.error) ?? 'subagent failed';
      }
      dur = num(d.durationMs) ?? 0;
      if (type === 'subagent' && spanId !== null) cli.start = { spanId, type: 'subagent.started' };
      break;
    }
    case 'hook.start':
    case 'hook.end': {
      const id = str(d.hookInvocationId);
      type = rawType === 'hook.start' ? 'unknown' : 'hook';
      name = str(d.hookType) ?? rawType;
      spanId = id === null ? null : hookSpanId(id);
      if (rawType === 'hook.end' && (d.success === false || errorText(d.error) !== null)) {
        status = 'error';
        error = errorText(d.error) ?? 'hook failed';
      }
      if (type === 'hook' && spanId !== null) cli.start = { spanId, type: 'hook.start' };
      cli.underCurrent = 'user';
      break;
    }
    case 'session.error':
      type = 'error';
      name = str(d.errorType) ?? 'session.error';
      status = 'error';
      error = str(d.message) ?? str(d.errorType) ?? 'session error';
      break;
    case 'session.compaction_complete':
      if (d.success === false) {
        status = 'error';
        error = errorText(d.error) ?? 'compaction failed';
      }
      break;
    case 'session.shutdown':
      // kept as its own type: the session's usage totals are read from it (cli-session-facts.ts)
      type = 'unknown';
      break;
    case 'session.model_change':
      model = str(d.newModel) ?? str(d.model);
      break;
    default:
      break;
  }

  return {
    type,
    rawType,
    name,
    sid: null,
    spanId,
    parentSpanId,
    status,
    ts,
    dur,
    rIdx: 0,
    model,
    tool,
    ttft: null,
    tokensIn: null,
    tokensOut,
    tokensCached: null,
    creditsNano: null,
    error,
    attrs: d,
    cli,
  };
}
