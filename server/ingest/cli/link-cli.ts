import type Database from 'better-sqlite3';
import type { NormalizedEvent } from '../../../shared/log-entry';
import { rawLines } from '../../db/raw-lines';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** tool starts remembered at most; a session rarely has more than a few running at once */
const MAX_PENDING_ARGUMENTS = 10_000;

interface Current {
  /** span id of the agent's current user message */
  user: string | null;
  /** span id of the agent's current model call (assistant.message) */
  assistant: string | null;
  /** a subagent's: the tool call that spawned it, for its lines that name no parent (its turn starts) */
  spawn: string | null;
}

interface StartRow {
  id: number;
  ts: number | null;
  name: string | null;
  tool: string | null;
  parent_span_id: string | null;
}

/**
 * Completes CLI events (normalize-cli.ts) from the session's earlier events, as the store writes them: the
 * lookups read the events table on the write connection (the group's own uncommitted rows included), so a
 * completion that arrives in a later read, after a restart or during a rebuild finds its start all the same.
 * Only "the current user message / model call of an agent" is kept in memory; after a reset it is read back
 * from the session's latest user message and model call (of any agent: the agent is not a column).
 */
export function makeCliLinker(db: Database.Database) {
  // Literal types, so that the planner can use the partial index events_cli_spans.
  const startStmt = {
    'tool.execution_start': db.prepare(
      "SELECT id, ts, name, tool, parent_span_id FROM events WHERE session_num = ? AND span_id = ? AND type = 'tool.execution_start' ORDER BY id DESC LIMIT 1",
    ),
    'subagent.started': db.prepare(
      "SELECT id, ts, name, tool, parent_span_id FROM events WHERE session_num = ? AND span_id = ? AND type = 'subagent.started' ORDER BY id DESC LIMIT 1",
    ),
    'hook.start': db.prepare("SELECT id, ts, name, tool, parent_span_id FROM events WHERE session_num = ? AND span_id = ? AND type = 'hook.start' ORDER BY id DESC LIMIT 1"),
  } as const;
  const turnStart = db.prepare("SELECT ts FROM events WHERE session_num = ? AND span_id = ? AND type = 'turn_start' ORDER BY id DESC LIMIT 1");
  const latest = {
    user: db.prepare("SELECT span_id FROM events WHERE session_num = ? AND type = 'user_message' ORDER BY ts DESC, id DESC LIMIT 1"),
    assistant: db.prepare("SELECT span_id FROM events WHERE session_num = ? AND type = 'llm_request' ORDER BY ts DESC, id DESC LIMIT 1"),
  };
  const current = new Map<number, Map<string, Current>>();
  /** per session, the tool call of the latest subagent.started: the next new agent id is that subagent */
  const spawning = new Map<number, string>();
  /** the arguments of the tool starts read by this process and not yet completed, by session and tool call */
  const pendingArguments = new Map<string, Record<string, unknown>>();
  const argumentsKey = (sessionNum: number, toolCallId: string) => `${sessionNum}\u0000${toolCallId}`;

  /** A completion's arguments: remembered from its start, else (the start was read before a restart) its archived line. */
  function startArguments(sessionNum: number, toolCallId: string, startId: number): Record<string, unknown> | undefined {
    const key = argumentsKey(sessionNum, toolCallId);
    const remembered = pendingArguments.get(key);
    if (remembered) {
      pendingArguments.delete(key);
      return remembered;
    }
    const data = rawLines(db).json(startId)?.data;
    return isObject(data) && isObject(data.arguments) ? data.arguments : undefined;
  }

  function currentOf(sessionNum: number, agent: string | null): Current {
    let agents = current.get(sessionNum);
    if (!agents) {
      agents = new Map();
      current.set(sessionNum, agents);
    }
    const key = agent ?? '';
    let c = agents.get(key);
    if (!c) {
      const read = (s: Database.Statement) => ((s.get(sessionNum) as { span_id: string | null } | undefined)?.span_id ?? null);
      c = agent === null ? { user: read(latest.user), assistant: read(latest.assistant), spawn: null } : { user: null, assistant: null, spawn: spawning.get(sessionNum) ?? null };
      agents.set(key, c);
    }
    return c;
  }

  return {
    /** The event with what only earlier lines know: start time, name and parent of a completion, a model call's duration. */
    link(sessionNum: number, ev: NormalizedEvent): NormalizedEvent {
      const cli = ev.cli;
      if (!cli) return ev;
      const out = { ...ev };
      const cur = currentOf(sessionNum, cli.agentId);
      if (cli.start) {
        const start = startStmt[cli.start.type as keyof typeof startStmt].get(sessionNum, cli.start.spanId) as StartRow | undefined;
        if (start) {
          if (start.ts !== null && ev.ts !== null) {
            out.ts = start.ts;
            // subagent.completed says how long it ran; otherwise the time between the two lines
            if (out.dur === 0) out.dur = Math.max(0, ev.ts - start.ts);
          }
          if (out.name === cli.rawType && start.name !== null) out.name = start.name;
          out.tool = out.tool ?? start.tool;
          out.parentSpanId = start.parent_span_id;
          if (cli.start.type === 'tool.execution_start') {
            const args = startArguments(sessionNum, cli.start.spanId, start.id);
            if (args) out.cli = { ...cli, startArguments: args };
          }
        }
      }
      if (cli.rawType === 'tool.execution_start' && ev.spanId !== null && isObject(ev.attrs.arguments)) {
        if (pendingArguments.size >= MAX_PENDING_ARGUMENTS) pendingArguments.clear(); // starts never completed; the archive still has them
        pendingArguments.set(argumentsKey(sessionNum, ev.spanId), ev.attrs.arguments);
      }
      if (cli.turn && ev.ts !== null) {
        const t = turnStart.get(sessionNum, cli.turn) as { ts: number | null } | undefined;
        if (t?.ts != null && t.ts <= ev.ts) {
          out.ts = t.ts;
          out.dur = ev.ts - t.ts;
        }
      }
      if (out.parentSpanId === null && cli.underCurrent) {
        out.parentSpanId = (cli.underCurrent === 'assistant' ? (cur.assistant ?? cur.user) : cur.user) ?? cur.spawn;
      }
      if (cli.rawType === 'subagent.started' && ev.parentSpanId !== null) spawning.set(sessionNum, ev.parentSpanId);
      if (cli.agentId !== null && ev.parentSpanId !== null && cur.spawn === null && ev.type === 'llm_request') cur.spawn = ev.parentSpanId;
      if (ev.type === 'user_message' && ev.parentSpanId === null) {
        cur.user = ev.spanId;
        cur.assistant = null;
      } else if (ev.type === 'llm_request' && ev.spanId !== null) {
        cur.assistant = ev.spanId;
      }
      return out;
    },
    /** After a rolled-back group or a rebuild: what was in memory may name rows that are gone. */
    reset(): void {
      current.clear();
      spawning.clear();
      pendingArguments.clear();
    },
  };
}

export type CliLinker = ReturnType<typeof makeCliLinker>;
