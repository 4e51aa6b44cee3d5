// The canonical debug-log entry (FORMAT.md §3) as the indexer normalizes it.

/** Entry types known to the loggers read (FORMAT §3.2). Anything else is kept as `unknown` with its raw type. */
export const EVENT_TYPES = [
  'session_start',
  'user_message',
  'llm_request',
  'agent_response',
  'tool_call',
  'subagent',
  'hook',
  'generic',
  'discovery',
  'child_session_ref',
  'turn_start',
  'turn_end',
  'error',
] as const;
export type KnownEventType = (typeof EVENT_TYPES)[number];
export type EventType = KnownEventType | 'unknown';

export type AttrValue = string | number | boolean | null;

/** The line envelope exactly as written (FORMAT §3.1); every field optional because the file wins over the spec. */
export interface RawLogEntry {
  v?: number;
  ts?: number;
  dur?: number;
  sid?: string;
  type?: string;
  name?: string;
  spanId?: string;
  parentSpanId?: string;
  status?: string;
  attrs?: Record<string, unknown>;
  rIdx?: number;
  [key: string]: unknown;
}

/** One event after normalization: the columns the derived tables and the UI rely on. */
export interface NormalizedEvent {
  type: EventType;
  /** the type as written, kept when it is not one we know */
  rawType: string;
  name: string;
  sid: string | null;
  spanId: string | null;
  parentSpanId: string | null;
  status: 'ok' | 'error';
  ts: number | null;
  dur: number;
  rIdx: number;
  model: string | null;
  tool: string | null;
  ttft: number | null;
  tokensIn: number | null;
  tokensOut: number | null;
  tokensCached: number | null;
  /** AI credits × 10⁹ (`copilotUsageNanoAiu`, INTEROP §5); null when the call carries none */
  creditsNano: number | null;
  error: string | null;
  attrs: Record<string, unknown>;
  /**
   * A Copilot CLI event (INTEROP §3): what the store must look up in the session's earlier events to complete it
   * (the start a completion merges with, the turn a model call's duration runs from). Absent for debug-log entries.
   */
  cli?: CliLink;
}

/**
 * How a CLI line joins what came before it. `start`: a completion (tool, subagent, hook) takes the ts, name and
 * parent of the start line with this span id. `turn`: a model call's duration runs from the turn start with this
 * span id. `underCurrent`: with no parent of its own, the line hangs under the current user message (or, for a
 * tool, the current model call) of its agent.
 */
export interface CliLink {
  rawType: string;
  agentId: string | null;
  start?: { spanId: string; type: string };
  turn?: string;
  underCurrent?: 'user' | 'assistant';
  /**
   * A tool completion's arguments, which the CLI writes on the start line only: filled in by the store's linker
   * (link-cli.ts) for the file and ref derivation; never part of the completion's attributes or text.
   */
  startArguments?: Record<string, unknown>;
}
