// Copilot CLI sessions (issue 20) indexed beside VS Code's debug logs: a hand-written tree (cli-fixture.ts) of a
// finished session, a resumed one that crashed with its last line cut, and one detached from the first.
import fs from 'node:fs';
import { allNodes, type SpanNode } from '../../spans/span-tree';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListQuery, LineageTraceQuery, SearchQuery, SessionListQuery, SpanListQuery } from '../../../shared/api';
import { traceLineage } from '../../lineage/lineage-db';
import { searchSessions } from '../../search/search-sessions';
import { getSessionDetail } from '../../sessions/session-detail';
import { listSessions } from '../../sessions/list-sessions';
import { getEventDetail } from '../../spans/event-detail';
import { listSpans } from '../../spans/list-spans';
import { sessionTree } from '../../spans/tree-cache';
import { listEvents } from '../../triage/events';
import { fixtureDb, line, type FixtureDb } from '../../test-support/fixture-db';
import { CRASHED, DETACHED, MAIN, RESULT_NEEDLE, T0, cliLines, cliTree } from './cli-fixture';
import { isCliEnvelope } from './normalize-cli';

const VS = 'vs-session-1';
let fx: FixtureDb;

/** What `jq -c 'select((.type|type)=="string" and (.id|type)=="string" and (.timestamp|type)=="string" and (.data|type)=="object")'` counts. */
function envelopeLines(file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const text = fs.readFileSync(file, 'utf8');
  // jq reads only complete lines of a file still being written
  for (const l of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
    try {
      const v = JSON.parse(l) as Record<string, unknown>;
      if (isCliEnvelope(v)) out.push(v);
    } catch {
      // not JSON: not an event
    }
  }
  return out;
}

const eventsFile = (id: string) => path.join(fx.sessionStateDir, id, 'events.jsonl');
const rowOf = (id: string) =>
  fx.db.prepare('SELECT s.*, (SELECT sum(events) FROM files f WHERE f.session_id = s.id) file_events, (SELECT sum(bad_lines) FROM files f WHERE f.session_id = s.id) bad FROM sessions s WHERE id = ?').get(id) as Record<string, unknown>;

beforeAll(async () => {
  fx = await fixtureDb(
    {
      [`${VS}/main.jsonl`]:
        line({ v: 1, ts: T0, sid: VS, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { copilotVersion: '0.30.0' } }) +
        line({ v: 1, ts: T0 + 10, sid: VS, type: 'user_message', name: 'user_message', spanId: '0000000000000002', status: 'ok', attrs: { content: 'VS Code side' } }) +
        line({ v: 1, ts: T0 + 20, dur: 9000, sid: VS, type: 'tool_call', name: 'run_in_terminal', spanId: '0000000000000003', parentSpanId: '0000000000000002', status: 'ok', attrs: { args: '{}', result: 'done' } }),
    },
    { cli: cliTree() },
  );
});
afterAll(() => fx.cleanup());

describe('discovery and counts', () => {
  it('indexes the CLI sessions beside the VS Code one, each marked with its source (Chronicle host_type too)', () => {
    const rows = fx.db.prepare('SELECT id, source, host_type FROM sessions ORDER BY id').all();
    expect(rows).toEqual([
      { id: MAIN, source: 'cli', host_type: 'cli' },
      { id: CRASHED, source: 'cli', host_type: 'cli' },
      { id: DETACHED, source: 'cli', host_type: 'cli' },
      { id: VS, source: 'vscode', host_type: 'vscode' },
    ]);
  });

  it('events per CLI session are the envelope-valid lines of its events.jsonl, in the list, the header and the archive', () => {
    const list = listSessions(fx.db, SessionListQuery.parse({ window: 'all' }));
    for (const id of [MAIN, CRASHED, DETACHED]) {
      const want = envelopeLines(eventsFile(id)).length;
      const row = rowOf(id);
      expect(row.file_events).toBe(want);
      expect(row.event_count).toBe(want);
      expect(list.sessions.find((s) => s.id === id)?.eventCount).toBe(want);
      expect(getSessionDetail(fx.db, id)?.eventCount).toBe(want);
    }
    expect(envelopeLines(eventsFile(MAIN)).length).toBe(28);
    // the garbage line and the line without `data` are bad lines; the cut last line waits for its newline
    expect(rowOf(MAIN).bad).toBe(2);
    expect(rowOf(CRASHED).bad).toBe(0);
    expect(rowOf(CRASHED).event_count).toBe(9);
  });

  it('the cut last line counts once the writer finishes it', async () => {
    fs.appendFileSync(eventsFile(CRASHED), 'rate","success":true,"result":{"content":"migrated 3"}},"id":"bbbbbbbb-0000-4000-9000-000000000010","timestamp":"2026-11-30T09:01:05.000Z","parentId":null}\n');
    await fx.reindex();
    expect(rowOf(CRASHED).event_count).toBe(10);
    expect(envelopeLines(eventsFile(CRASHED)).length).toBe(10);
  });
});

describe('the tree', () => {
  const nodes = (id: string) => {
    const t = sessionTree(fx.db, id)!.tree;
    return { t, byType: (type: string, name?: string) => allNodes(t).filter((n) => n.entry.type === type && (name === undefined || n.entry.name === name)) };
  };

  it("a tool call's start and completion are one span with the completion's status, arguments' time and duration", () => {
    const { t, byType } = nodes(MAIN);
    expect(byType('tool.execution_start')).toEqual([]);
    const bash = byType('tool_call', 'bash');
    expect(bash).toHaveLength(1);
    expect(bash[0].entry).toMatchObject({ status: 1, ts: T0 + 3300, dur: 5000, tool: 'bash' });
    expect(byType('tool_call').map((n) => n.entry.name).sort()).toEqual(['bash', 'grep', 'task', 'view']);
    expect(t.stats.mergedStarts).toBe(6); // 4 tools, 1 subagent, 1 hook
  });

  it("a subagent and its calls sit under the tool call that spawned it", () => {
    const { t, byType } = nodes(MAIN);
    const task = t.indexOf(byType('tool_call', 'task')[0].entry.id)!;
    const all = allNodes(t);
    const under = (n: SpanNode) => all[n.parent];
    expect(under(byType('subagent', 'explore')[0])).toEqual(all[task]);
    expect(under(byType('tool_call', 'grep')[0])).toEqual(all[task]);
    expect(under(byType('llm_request', 'chat:claude-haiku-4.5')[0])).toEqual(all[task]);
    expect(byType('subagent', 'explore')[0].entry).toMatchObject({ status: 0, dur: 1850, ts: T0 + 10150 });
    // the subagent's turn start names no parent: it is the agent that the latest subagent.started spawned
    expect(under(all.find((n) => n.entry.spanId === 'turn-agent-explore-1-0')!)).toEqual(all[task]);
  });

  it('model calls hang under their user message, tools under their model call, with the duration from the turn start', () => {
    const { t, byType } = nodes(MAIN);
    const all = allNodes(t);
    const [m1, m2] = byType('llm_request', 'chat:claude-sonnet-4.5');
    expect(all[m1.parent].entry.type).toEqual('user_message');
    expect(m1.entry).toMatchObject({ ts: T0 + 1100, dur: 2000, tokensOut: 120 });
    expect(m2.entry).toMatchObject({ ts: T0 + 9000, dur: 1000, tokensOut: 40 });
    expect(all[byType('tool_call', 'view')[0].parent]).toEqual(m1);
    expect(all[byType('tool_call', 'task')[0].parent]).toEqual(m2);
  });

  it('a tool started and never completed stays in the tree, as running', () => {
    const fresh = sessionTree(fx.db, CRASHED)!.tree;
    // (the completion appended above came in a later read: merged all the same)
    expect(allNodes(fresh).filter((n) => n.entry.type === 'tool.execution_start')).toEqual([]);
    expect(allNodes(fresh).filter((n) => n.entry.type === 'tool_call').map((n) => ({ ...n.entry })).map(({ name, status, ts, dur }) => ({ name, status, ts, dur }))).toEqual([
      { name: 'bash', status: 0, ts: T0 + 62200, dur: 2800 },
    ]);
  });

  it('a tool started and never completed is one span, labelled running, with the calls below it', async () => {
    const S = 'dddddddd-0000-4000-8000-000000000004';
    const running = await fixtureDb(
      {},
      {
        cli: {
          [`${S}/events.jsonl`]: cliLines(S, [
            { at: 0, type: 'session.start', data: { sessionId: S } },
            { at: 10, type: 'user.message', data: { content: 'explore' } },
            { at: 20, type: 'assistant.message', data: { messageId: 'x', model: 'gpt-5', outputTokens: 3 } },
            { at: 30, type: 'tool.execution_start', data: { toolCallId: 'call_long', toolName: 'task', arguments: { prompt: 'look around' } } },
            { at: 40, type: 'subagent.started', data: { toolCallId: 'call_long', agentName: 'explore' } },
            { at: 50, type: 'tool.execution_start', agentId: 'a1', data: { toolCallId: 'call_inner', toolName: 'grep', parentToolCallId: 'call_long' } },
          ]),
        },
      },
    );
    try {
      const t = sessionTree(running.db, S)!.tree;
      const rows = listSpans(running.db, S, SpanListQuery.parse({ fold: 'none' })).rows;
      expect(rows.map((r) => [r.depth, r.type, r.name, r.label])).toEqual([
        [0, 'session_start', 'session_start', ''],
        [0, 'user_message', 'user_message', 'explore'],
        [1, 'llm_request', 'chat:gpt-5', '? → 3 tokens'],
        [2, 'tool.execution_start', 'task', 'running (no completion yet) · look around'],
        [3, 'subagent.started', 'explore', 'running (no completion yet)'],
        [3, 'tool.execution_start', 'grep', 'running (no completion yet)'],
      ]);
      expect(t.stats).toMatchObject({ mergedStarts: 0, orphans: 0 });
    } finally {
      running.cleanup();
    }
  });

  it('hooks, compactions, model changes and errors are events of the session', () => {
    const { byType } = nodes(MAIN);
    expect(byType('hook', 'postToolUse')[0].entry).toMatchObject({ status: 0, dur: 40 });
    expect(byType('generic').map((n) => n.entry.name)).toEqual(['session.model_change', 'session.compaction_start', 'session.compaction_complete', 'session.usage_checkpoint']);
    expect(byType('error')[0].entry).toMatchObject({ name: 'rate_limit', status: 1 });
  });
});

describe('session facts and usage', () => {
  it('folder, repository, branch and title come from vscode.metadata.json, workspace.yaml and session.start', () => {
    expect(getSessionDetail(fx.db, MAIN)).toMatchObject({ title: 'Retry loop fix', repository: 'octo/uploader', branch: 'fix/retry', workspaceFolder: '/home/dev/uploader', source: 'cli' });
    expect(getSessionDetail(fx.db, CRASHED)).toMatchObject({ title: 'Run the migrations', repository: null, workspaceFolder: '/home/dev/api' });
  });

  it('output tokens per session are the sum of assistant.message outputTokens; input, cache and credits the shutdown totals', () => {
    for (const id of [MAIN, CRASHED, DETACHED]) {
      const jq = envelopeLines(eventsFile(id))
        .filter((l) => l.type === 'assistant.message')
        .reduce((n, l) => n + (((l.data as Record<string, unknown>).outputTokens as number | undefined) ?? 0), 0);
      expect(getSessionDetail(fx.db, id)?.tokensOut).toBe(jq);
    }
    expect(getSessionDetail(fx.db, MAIN)).toMatchObject({ tokensOut: 175, tokensIn: 10000, credits: 2.3, usageComplete: true });
  });

  it('a session without session.shutdown says its usage is incomplete', () => {
    expect(getSessionDetail(fx.db, CRASHED)).toMatchObject({ usageComplete: false, tokensIn: 0, credits: null });
    expect(getSessionDetail(fx.db, VS)).toMatchObject({ usageComplete: true, source: 'vscode' });
  });

  it('a detached session has the session it left as its parent, in its detail and in the lineage graph', () => {
    expect(getSessionDetail(fx.db, DETACHED)).toMatchObject({ parentId: MAIN });
    // one parent everywhere: the edge the lineage graph is drawn from says the same as sessions.parent_id
    expect(fx.db.prepare('SELECT parent_id, kind, source FROM session_edges WHERE child_id = ?').get(DETACHED)).toEqual({ parent_id: MAIN, kind: 'fork', source: 'session_start' });
    const family = traceLineage(fx.db, MAIN, LineageTraceQuery.parse({}));
    expect(family?.descendants.map((n) => [n.id, n.kind])).toEqual([[DETACHED, 'fork']]);
    expect(traceLineage(fx.db, DETACHED, LineageTraceQuery.parse({}))?.ancestors.map((n) => n.id)).toEqual([MAIN]);
  });
});

describe('search and triage', () => {
  it('a string of a CLI tool result finds its session, marked as a CLI session', () => {
    const r = searchSessions(fx.db, SearchQuery.parse({ q: RESULT_NEEDLE, depth: 'all' }));
    const found = r.groups.flatMap((g) => g.sessions);
    expect(found.map((s) => ({ id: s.id, source: s.source }))).toEqual([{ id: MAIN, source: 'cli' }]);
    expect(found[0].hits[0]).toMatchObject({ kind: 'tool', eventType: 'tool_call', source: 'cli' });
    // the detail pane shows the CLI line's data as the event's attributes
    const detail = getEventDetail(fx.db, found[0].hits[0].eventId!)!;
    expect((detail.attrs.result as { content: string }).content).toContain(RESULT_NEEDLE);
    expect(detail.attrs.toolCallId).toBe('call_read');
    // and the call whole: its arguments, which only its start line holds
    expect(detail.attrs.arguments).toEqual({ path: '/home/dev/uploader/src/retry.ts' });
    expect(JSON.parse(detail.raw).data.arguments).toBeUndefined(); // the raw line stays the completion as written
  });

  it('source:cli and source:vscode narrow a search', () => {
    const ids = (q: string) =>
      searchSessions(fx.db, SearchQuery.parse({ q, depth: 'all' }))
        .groups.flatMap((g) => g.sessions.map((s) => s.id))
        .sort();
    expect(ids('side')).toEqual([VS]);
    expect(ids('side source:vscode')).toEqual([VS]);
    expect(ids('side source:cli')).toEqual([]);
    expect(ids('the')).toEqual([MAIN, CRASHED, DETACHED].sort());
    expect(ids('the source:cli')).toEqual([MAIN, CRASHED, DETACHED].sort());
    expect(ids('retry source:vscode')).toEqual([]);
    expect(() => ids('retry source:jetbrains')).toThrow(/source:jetbrains is not a source/);
  });

  it('the slowest calls and the failures include CLI tool calls and model turns, with their source', () => {
    const slow = listEvents(fx.db, EventListQuery.parse({ min: 1000 }));
    expect(slow.events.map((e) => ({ name: e.name, dur: e.dur, source: e.source }))).toEqual([
      { name: 'run_in_terminal', dur: 9000, source: 'vscode' },
      { name: 'bash', dur: 5000, source: 'cli' },
      { name: 'bash', dur: 2800, source: 'cli' },
      { name: 'chat:claude-sonnet-4.5', dur: 2000, source: 'cli' },
      { name: 'task', dur: 1950, source: 'cli' },
      { name: 'explore', dur: 1850, source: 'cli' },
    ]);
    // a CLI model call's input and cache are its share of the shutdown totals (120 of the model's 160 output tokens)
    expect(slow.events.find((e) => e.name === 'chat:claude-sonnet-4.5')).toMatchObject({ tokensOut: 120, tokensIn: 6750, tokensCached: 3000, estimated: true });
    expect(slow.events.find((e) => e.name === 'run_in_terminal')?.estimated).toBeUndefined();
    const failed = listEvents(fx.db, EventListQuery.parse({ min: -1, failed: '1' }));
    expect(failed.events.map((e) => ({ name: e.name, error: e.error, source: e.source })).sort((a, b) => a.name!.localeCompare(b.name!))).toEqual([
      { name: 'bash', error: 'Command failed with exit code 1', source: 'cli' },
      { name: 'rate_limit', error: 'Rate limit exceeded, retrying in 5s', source: 'cli' },
    ]);
  });
});
