import { EVENT_TYPES, type EventType, type NormalizedEvent, type RawLogEntry } from '../../shared/log-entry';
import { isCliEnvelope, normalizeCliEvent } from './cli/normalize-cli';

const KNOWN = new Set<string>(EVENT_TYPES);

/** The attributes of an archived line: a debug-log entry's `attrs`, a Copilot CLI event's `data` (INTEROP §3). */
export function lineAttrs(raw: unknown): Record<string, unknown> | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const r = raw as RawLogEntry;
  const a = isCliEnvelope(r) ? r.data : r.attrs;
  return a !== null && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** Token and duration values: numbers, or numeric strings written by other tools; anything else is absent. */
function num(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/**
 * Maps the variants seen in the wild onto one shape (FORMAT §3, §8): `llm_request` named `llm_request` or
 * `chat:<model>`, tool names prefixed `tool:`, `turn_start` with or without `:<n>`, unknown types kept as
 * `unknown` with their raw type. Attributes are kept whole; only the columns below are lifted out.
 */
export function normalizeEntry(raw: RawLogEntry): NormalizedEvent {
  // A Copilot CLI line (INTEROP §3) has its own envelope; debug-log entries never carry `data` and `timestamp`.
  // Decided by the line alone, so search (snippets, verify-candidates) reads an archived line as the indexer did.
  if (isCliEnvelope(raw)) return normalizeCliEvent(raw);
  const rawType = typeof raw.type === 'string' ? raw.type : '';
  const type: EventType = KNOWN.has(rawType) ? (rawType as EventType) : 'unknown';
  const attrs = raw.attrs !== null && typeof raw.attrs === 'object' && !Array.isArray(raw.attrs) ? raw.attrs : {};
  let name = typeof raw.name === 'string' ? raw.name : rawType;

  let model: string | null = null;
  let tool: string | null = null;
  if (type === 'llm_request') {
    model = str(attrs.model) ?? (name.startsWith('chat:') ? name.slice(5) : null);
    if (model === '') model = null;
  } else if (type === 'tool_call') {
    if (name.startsWith('tool:')) name = name.slice(5);
    tool = name;
  } else if (type === 'subagent') {
    tool = str(attrs.agentName) ?? name;
  } else if (type === 'turn_start' || type === 'turn_end') {
    // Both `turn_start:<n>` and a bare `turn_start` with attrs.turnId are written, turnId a string or a number
    // (FORMAT §10.3); name them one way.
    const id = typeof attrs.turnId === 'number' && Number.isFinite(attrs.turnId) ? String(attrs.turnId) : str(attrs.turnId);
    const turnId = id ?? (name.includes(':') ? name.slice(name.indexOf(':') + 1) : null);
    name = turnId !== null ? `${type}:${turnId}` : type;
  }

  const status = raw.status === 'error' || (type === 'hook' && attrs.resultKind === 'error') ? 'error' : 'ok';
  const errorText = str(attrs.error) ?? (status === 'error' ? str(attrs.result) : null);
  const ts = num(raw.ts);
  const dur = num(raw.dur);

  return {
    type,
    rawType,
    name,
    sid: typeof raw.sid === 'string' && raw.sid !== '' ? raw.sid : null,
    spanId: typeof raw.spanId === 'string' && raw.spanId !== '' ? raw.spanId : null,
    parentSpanId: typeof raw.parentSpanId === 'string' && raw.parentSpanId !== '' ? raw.parentSpanId : null,
    status,
    ts: ts === null ? null : Math.trunc(ts),
    dur: dur === null || dur < 0 ? 0 : Math.trunc(dur),
    rIdx: num(raw.rIdx) ?? 0,
    model,
    tool,
    ttft: type === 'llm_request' ? num(attrs.ttft) : null,
    tokensIn: type === 'llm_request' ? num(attrs.inputTokens) : null,
    tokensOut: type === 'llm_request' ? num(attrs.outputTokens) : null,
    // EVT reads `cacheReadTokens ?? cachedTokens` (FORMAT §3.3).
    tokensCached: type === 'llm_request' ? (num(attrs.cacheReadTokens) ?? num(attrs.cachedTokens)) : null,
    creditsNano: type === 'llm_request' ? num(attrs.copilotUsageNanoAiu) : null,
    error: errorText,
    attrs,
  };
}
