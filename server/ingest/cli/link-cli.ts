import type Database from 'better-sqlite3';
import type { NormalizedEvent, RawLogEntry } from '../../../shared/log-entry';
import { rawLines } from '../../db/raw-lines';
import { isCliEnvelope, normalizeCliEvent } from './normalize-cli';
import { startArgumentsOf } from './start-arguments';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** tool starts remembered at most; a session rarely has more than a few running at once */
const MAX_PENDING_ARGUMENTS = 10_000;
/** archived lines read per statement when replaying a session */
const REPLAY_BATCH = 1000;

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
 * What no column holds — each agent's current user message and model call, the subagent being spawned, the
 * arguments of running tools — is kept in memory, and rebuilt after a restart or a reset by replaying the
 * session's archived lines once, so a session read in two parts is placed exactly as one read places it.
 */
export function makeCliLinker(db: Database.Database, maxSessions = Infinity) {
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
  // `+id`: the session's index, never a walk of every id below (that would make a backfill quadratic)
  const earlierEvents = db.prepare('SELECT id FROM events WHERE session_num = ? AND +id < ? ORDER BY id').pluck();
  /** per session (the least recently linked first, dropped past `maxSessions`: its next line replays it), per agent */
  const current = new Map<number, Map<string, Current>>();
  /** per session, the tool call of the latest subagent.started: the next new agent id is that subagent */
  const spawning = new Map<number, string>();
  /** the arguments of the tool starts not yet completed, by session and tool call */
  const pendingArguments = new Map<string, Record<string, unknown>>();
  const argumentsKey = (sessionNum: number, toolCallId: string) => `${sessionNum}\u0000${toolCallId}`;

  function currentOf(sessionNum: number, agent: string | null): Current {
    let agents = current.get(sessionNum);
    if (!agents) {
      agents = new Map();
      current.set(sessionNum, agents);
    }
    const key = agent ?? '';
    let c = agents.get(key);
    if (!c) {
      c = { user: null, assistant: null, spawn: agent === null ? null : (spawning.get(sessionNum) ?? null) };
      agents.set(key, c);
    }
    return c;
  }

  /** What a line changes in memory: the same whether it is being linked or replayed. */
  function observe(sessionNum: number, ev: NormalizedEvent, cur: Current): void {
    const cli = ev.cli!;
    if (cli.rawType === 'subagent.started' && ev.parentSpanId !== null) spawning.set(sessionNum, ev.parentSpanId);
    if (cli.agentId !== null && ev.parentSpanId !== null && cur.spawn === null && ev.type === 'llm_request') cur.spawn = ev.parentSpanId;
    if (ev.type === 'user_message' && ev.parentSpanId === null) {
      cur.user = ev.spanId;
      cur.assistant = null;
    } else if (ev.type === 'llm_request' && ev.spanId !== null) {
      cur.assistant = ev.spanId;
    }
    if (cli.rawType === 'tool.execution_start' && ev.spanId !== null && isObject(ev.attrs.arguments)) {
      if (pendingArguments.size >= MAX_PENDING_ARGUMENTS) pendingArguments.clear(); // starts never completed; the archive still has them
      pendingArguments.set(argumentsKey(sessionNum, ev.spanId), ev.attrs.arguments);
    } else if (cli.rawType === 'tool.execution_complete' && ev.spanId !== null) {
      pendingArguments.delete(argumentsKey(sessionNum, ev.spanId));
    }
  }

  let lastLinked = -1;

  /** Drops what is kept of a session; its next line replays its archived lines (so nothing is lost but time). */
  function forget(sessionNum: number): void {
    current.delete(sessionNum);
    spawning.delete(sessionNum);
    const prefix = argumentsKey(sessionNum, '');
    for (const key of pendingArguments.keys()) if (key.startsWith(prefix)) pendingArguments.delete(key);
  }

  /** The first line of a session this linker sees: its earlier lines (an earlier run's) set the memory first. */
  function replay(sessionNum: number, beforeId: number): void {
    current.set(sessionNum, new Map());
    const ids = earlierEvents.all(sessionNum, beforeId) as number[];
    const archive = rawLines(db);
    for (let i = 0; i < ids.length; i += REPLAY_BATCH) {
      const batch = ids.slice(i, i + REPLAY_BATCH);
      const texts = archive.texts(batch);
      for (const id of batch) {
        const text = texts.get(id);
        if (text === undefined) continue;
        const raw = JSON.parse(text) as RawLogEntry;
        if (!isCliEnvelope(raw)) continue;
        const ev = normalizeCliEvent(raw);
        observe(sessionNum, ev, currentOf(sessionNum, ev.cli!.agentId));
      }
    }
  }

  /** A completion's arguments: remembered from its start, else (more starts running than remembered) its archived line. */
  function startArguments(sessionNum: number, toolCallId: string, startId: number): Record<string, unknown> | undefined {
    const remembered = pendingArguments.get(argumentsKey(sessionNum, toolCallId));
    if (remembered) return remembered;
    const args = startArgumentsOf(rawLines(db).json(startId));
    return isObject(args) ? args : undefined;
  }

  return {
    /**
     * The event with what only earlier lines know: start time, name, parent and arguments of a completion, a
     * model call's duration. `id` is the event's own id: the lines before it are the session's past.
     */
    link(sessionNum: number, ev: NormalizedEvent, id: number): NormalizedEvent {
      const cli = ev.cli;
      if (!cli) return ev;
      const agents = current.get(sessionNum);
      if (!agents) {
        replay(sessionNum, id);
        if (current.size > maxSessions) forget(current.keys().next().value as number);
      } else if (sessionNum !== lastLinked) {
        current.delete(sessionNum); // most recently linked last
        current.set(sessionNum, agents);
      }
      lastLinked = sessionNum;
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
      observe(sessionNum, ev, cur);
      return out;
    },
    /** How many sessions' memory is kept (tests: it is bounded). */
    get sessions(): number {
      return current.size;
    },
    /** After a rolled-back group or a rebuild: what was in memory may name rows that are gone. */
    reset(): void {
      lastLinked = -1;
      current.clear();
      spawning.clear();
      pendingArguments.clear();
    },
  };
}

export type CliLinker = ReturnType<typeof makeCliLinker>;
