import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordReads, snapshotsOf, type Read } from '../test-support/record-statements';
import { createChronoscopeMcp, type ChronoscopeMcp } from './mcp-server';

// The MCP server through the SDK's own client: in memory for every tool, and once over stdio as an agent's
// client spawns it. The fixture is written the way the current logger writes (FORMAT §10): span ids are
// counters that restart at 1 in each session, turns in both id forms, a subagent in a child log, a skill
// skipped for name-mismatch, and one session still being written (for include_active).

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');
const NOW = Date.now();
const T = NOW - 3 * 3_600_000;
const A = 'aaaaaaaa-0000-4000-8000-00000000000a';
const B = 'bbbbbbbb-0000-4000-8000-00000000000b';
const LIVE = 'cccccccc-0000-4000-8000-00000000000c';
const CHILD = 'dddddddd-0000-4000-8000-00000000000d';
const id = (n: number) => n.toString(16).padStart(16, '0');

function sessionA(): string {
  const sid = A;
  return [
    line({ v: 1, ts: T, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.67.0', vscodeVersion: '1.120.0' } }),
    line({ ts: T + 5, dur: 0, sid, type: 'discovery', name: 'Load Skills', spanId: id(9), status: 'ok', attrs: { details: 'Resolved 2 skills in 0.1ms | loaded: [troubleshoot] | skipped: testing2 (name-mismatch) | folders: [/w/.github/skills]', category: 'discovery', source: 'core' } }),
    line({ ts: T + 10, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: 'why does wsReconnectLoop spin forever?' } }),
    line({ ts: T + 11, dur: 0, sid, type: 'turn_start', name: 'turn_start:0', spanId: `turn_start-${id(1)}-0`, parentSpanId: id(1), status: 'ok', attrs: { turnId: '0' } }),
    line({ ts: T + 20, dur: 61_000, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(2), parentSpanId: id(1), status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 18000, outputTokens: 240, ttft: 900, copilotUsageNanoAiu: 2_500_000_000 } }),
    line({ ts: T + 61_100, dur: 35, sid, type: 'tool_call', name: 'run_in_terminal', spanId: id(3), parentSpanId: id(1), status: 'error', attrs: { args: '{"command":"npm test"}', result: 'ERROR: conpty.node missing', error: 'A native exception occurred during launch' } }),
    line({ ts: T + 61_200, dur: 9000, sid, type: 'tool_call', name: 'runSubagent', spanId: id(4), parentSpanId: id(1), status: 'ok', attrs: { args: '{"agentName":"Explore"}', result: 'found it' } }),
    line({ ts: T + 61_150, dur: 0, sid, type: 'child_session_ref', name: 'runSubagent-Explore', spanId: `child-ref-${CHILD}`, parentSpanId: id(4), status: 'ok', attrs: { childSessionId: CHILD, childLogFile: `runSubagent-Explore-${CHILD}.jsonl`, label: 'runSubagent-Explore' } }),
    line({ ts: T + 70_300, dur: 0, sid, type: 'turn_end', name: 'turn_end:0', spanId: `turn_end-${id(1)}-0`, parentSpanId: id(1), status: 'ok', attrs: { turnId: '0' } }),
    line({ ts: T + 70_400, dur: 0, sid, type: 'turn_start', name: 'turn_start:1', spanId: `turn-start-${id(1)}-1`, parentSpanId: id(1), status: 'ok', attrs: { turnId: 1 } }),
    line({ ts: T + 70_500, dur: 1200, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(5), parentSpanId: id(1), status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 19000, outputTokens: 80, ttft: 300 } }),
    line({ ts: T + 71_800, dur: 0, sid, type: 'turn_end', name: 'turn_end:1', spanId: `turn-end-${id(1)}-1`, parentSpanId: id(1), status: 'ok', attrs: { turnId: 1 } }),
    '{"ts":12,"garbage\n',
  ].join('');
}

function childLog(): string {
  const sid = CHILD;
  return [
    line({ v: 1, ts: T + 61_150, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.67.0', vscodeVersion: '1.120.0', parentSessionId: A, label: 'runSubagent-Explore' } }),
    line({ ts: T + 61_210, dur: 8900, sid, type: 'subagent', name: 'Explore', spanId: id(1), parentSpanId: id(4), status: 'ok', attrs: { agentName: 'Explore', description: 'look for the reconnect loop' } }),
    line({ ts: T + 61_300, dur: 2000, sid, type: 'tool_call', name: 'read_file', spanId: id(2), parentSpanId: id(1), status: 'ok', attrs: { args: '{"filePath":"/w/src/ws.ts"}', result: 'x'.repeat(50_000) } }),
    line({ ts: T + 63_400, dur: 100, sid, type: 'tool_call', name: 'grep_search', spanId: id(3), parentSpanId: id(1), status: 'ok', attrs: { args: '{"query":"reconnect"}', result: 'y'.repeat(50_000) } }),
  ].join('');
}

function sessionB(): string {
  const sid = B;
  return [
    line({ ts: T - 86_400_000, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: 'add a unit test for parseDate' } }),
    line({ ts: T - 86_399_000, dur: 7000, sid, type: 'llm_request', name: 'chat:claude-sonnet-4', spanId: id(2), parentSpanId: id(1), status: 'ok', attrs: { model: 'claude-sonnet-4', inputTokens: 9000, outputTokens: 50, ttft: 2500 } }),
  ].join('');
}

function liveSession(): string {
  const sid = LIVE;
  return line({ ts: NOW - 20_000, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: 'still working on wsReconnectLoop right now' } });
}

let fx: FixtureDb;
let mcp: ChronoscopeMcp;
let client: Client;
/** every statement the tools run on their connection */
let reads: Read[];

beforeAll(async () => {
  fx = await fixtureDb({
    [`${A}/main.jsonl`]: sessionA(),
    [`${A}/runSubagent-Explore-${CHILD}.jsonl`]: childLog(),
    [`ws2:${B}/main.jsonl`]: sessionB(),
    [`${LIVE}/main.jsonl`]: liveSession(),
  });
  const db = openReadDb(fx.dbPath);
  reads = recordReads(db);
  mcp = createChronoscopeMcp({ db, dbPath: fx.dbPath, port: 7311 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
});

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  fx?.cleanup();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(name: string, args: Record<string, unknown>): Promise<{ r: CallToolResult; body: Json }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    body = { text };
  }
  return { r, body };
}

const TOOL_NAMES = ['search_sessions', 'get_session', 'get_events', 'slowest_calls', 'error_groups', 'latency_stats', 'trace_lineage', 'customizations', 'sql'];

describe('chronoscope mcp', () => {
  it('each tool call reads one snapshot of the index (the indexer commits while an agent asks); sql reads in its own process', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['search_sessions', { query: 'wsReconnectLoop' }],
      ['get_session', { session_id: A }],
      ['get_events', { session_id: A }],
      ['slowest_calls', {}],
      ['error_groups', {}],
      ['latency_stats', {}],
      ['trace_lineage', { session_id: A }],
      ['customizations', {}],
    ];
    expect([...calls.map((c) => c[0]), 'sql']).toEqual(TOOL_NAMES);
    for (const [name, args] of calls) {
      reads.length = 0;
      const { r } = await call(name, args);
      expect([name, r.isError ?? false]).toEqual([name, false]);
      expect({ name, ...snapshotsOf(reads) }).toEqual({ name, begun: 1, outside: [] });
    }
    reads.length = 0;
    await call('sql', { query: 'SELECT count(*) FROM sessions' });
    expect(snapshotsOf(reads)).toEqual({ begun: 1, outside: [] }); // the transaction around a call that reads nothing here
  });

  it('lists the nine tools, each with a description and an input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(150);
      expect(t.inputSchema.type).toBe('object');
      expect(t.annotations?.readOnlyHint).toBe(true);
    }
    const search = tools.find((t) => t.name === 'search_sessions')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties!)).toEqual(['query', 'repo', 'window', 'limit', 'cursor', 'include_active', 'all_matches']);
  });

  it('search_sessions finds a session by a word, with its best event and a link; the active session is left out', async () => {
    const { r, body } = await call('search_sessions', { query: 'wsReconnectLoop' });
    expect(r.isError).toBeFalsy();
    const sessions = body.groups.flatMap((g: Json) => g.sessions);
    expect(sessions.map((s: Json) => s.session_id)).toEqual([A]);
    expect(body.left_out_active).toBe(1);
    expect(sessions[0].best_event_id).toBeGreaterThan(0);
    expect(sessions[0].link).toBe(`http://127.0.0.1:7311/session/${A}?event=${sessions[0].best_event_id}`);
    expect(sessions[0].snippet).toContain('wsReconnectLoop');
    expect(r.structuredContent).toEqual(body);
    const withActive = await call('search_sessions', { query: 'wsReconnectLoop', include_active: true });
    expect(withActive.body.groups.flatMap((g: Json) => g.sessions.map((s: Json) => s.session_id)).sort()).toEqual([A, LIVE].sort());
  });

  it('search_sessions narrows by repository and window', async () => {
    const { body } = await call('search_sessions', { query: 'parseDate', repo: 'ws2' });
    expect(body.groups.map((g: Json) => [g.repository, g.sessions.map((s: Json) => s.session_id)])).toEqual([['ws2', [B]]]);
    const none = await call('search_sessions', { query: 'parseDate', window: '24h' });
    expect(none.body.sessions_found).toBe(0);
  });

  it('get_session gives the facts and the requests with iterations from both turn-id forms', async () => {
    const { body } = await call('get_session', { session_id: A });
    expect(body).toMatchObject({ session_id: A, repository: 'ws1', models: ['gpt-4.1'], copilot_version: '0.67.0', credits: 2.5, requests_total: 1, children_total: 1 });
    expect(body.tokens).toEqual({ input: 37000, output: 320, cached: 0 });
    expect(body.children).toEqual([{ session_id: CHILD, label: 'runSubagent-Explore', title: 'runSubagent-Explore', events: 4, errors: 0 }]);
    expect(body.requests).toHaveLength(1);
    expect(body.requests[0]).toMatchObject({ user_text: 'why does wsReconnectLoop spin forever?', iterations: 2, unfinished_iterations: 0, errors: 1 });
    expect(body.slowest_call).toMatchObject({ name: 'chat:gpt-4.1', duration_ms: 61_000 });
  });

  it('get_events pages the span tree with attrs cut to max_chars, and jumps around an event', async () => {
    const page = await call('get_events', { session_id: A, limit: 3, max_chars: 100 });
    expect(page.body.rows.map((x: Json) => x.row)).toEqual([0, 1, 2]);
    expect(page.body.next_from).toBe(3);
    const all = await call('get_events', { session_id: A, limit: 100, max_chars: 100 });
    const read = all.body.rows.find((x: Json) => x.name === 'read_file');
    expect(read.session_id).toBe(CHILD);
    expect(read.attrs.result).toBe(`${'x'.repeat(100)}… [cut: 49900 more characters]`);
    const failed = all.body.rows.find((x: Json) => x.name === 'run_in_terminal');
    const around = await call('get_events', { session_id: A, around_event: failed.event_id, limit: 5 });
    expect(around.body.rows.map((x: Json) => x.event_id)).toContain(failed.event_id);
    expect(around.body.rows[Math.floor(around.body.rows.length / 2)].event_id === failed.event_id || around.body.from === 0).toBe(true);
    const errorsOnly = await call('get_events', { session_id: A, status: 'error' });
    expect(errorsOnly.body.rows.filter((x: Json) => x.status === 'error').map((x: Json) => x.name)).toEqual(['run_in_terminal']);
  });

  it('slowest_calls lists the slow calls, slowest first, with links', async () => {
    const { body } = await call('slowest_calls', {});
    expect(body.calls.map((c: Json) => [c.name, c.duration_ms])).toEqual([
      ['chat:gpt-4.1', 61_000],
      ['runSubagent', 9000],
      ['Explore', 8900],
      ['chat:claude-sonnet-4', 7000],
    ]);
    expect(body.total).toBe(4);
    const models = await call('slowest_calls', { type: 'llm_request', min_ms: 0, model: 'claude-sonnet-4' });
    expect(models.body.calls.map((c: Json) => c.session_id)).toEqual([B]);
    expect(models.body.calls[0].link).toBe(`http://127.0.0.1:7311/session/${B}?event=${models.body.calls[0].event_id}`);
  });

  it('error_groups gives each group its latest error and the call\'s result', async () => {
    const { body } = await call('error_groups', { kind: 'tool' });
    expect(body.groups).toHaveLength(1);
    expect(body.groups[0]).toMatchObject({ kind: 'tool', subject: 'run_in_terminal', count: 1, sessions: 1 });
    expect(body.groups[0].latest).toMatchObject({ session_id: A, error: 'A native exception occurred during launch', result: 'ERROR: conpty.node missing' });
  });

  it('latency_stats by model with percentiles and TTFT', async () => {
    const { body } = await call('latency_stats', { by: 'model' });
    const gpt = body.rows.find((x: Json) => x.key === 'gpt-4.1');
    expect(gpt).toMatchObject({ calls: 2, errors: 0, duration_ms: { p50: 1200, p90: 61_000, p99: 61_000, max: 61_000 }, ttft_ms: { p50: 300, p90: 900, p99: 900, max: 900 } });
  });

  it('names each session\'s source: VS Code sessions say vscode, with complete usage', async () => {
    const found = await call('search_sessions', { query: 'parseDate' });
    expect(found.body.groups.flatMap((g: Json) => g.sessions.map((x: Json) => x.source))).toEqual(['vscode']);
    const got = await call('get_session', { session_id: A });
    expect({ source: got.body.source, usage_complete: got.body.usage_complete }).toEqual({ source: 'vscode', usage_complete: true });
    const slow = await call('slowest_calls', {});
    expect(new Set(slow.body.calls.map((c: Json) => c.source))).toEqual(new Set(['vscode']));
  });

  it('trace_lineage names a CLI session\'s source from the session row', async () => {
    // CHILD stands in for a CLI session until the CLI ingest writes them: the node reads only the column
    fx.db.prepare(`UPDATE sessions SET source = 'cli' WHERE id = ?`).run(CHILD);
    try {
      const down = await call('trace_lineage', { session_id: A });
      expect(down.body.descendants.map((d: Json) => [d.session_id, d.source])).toEqual([[CHILD, 'cli']]);
      expect(down.body.target.source).toBe('vscode');
    } finally {
      fx.db.prepare(`UPDATE sessions SET source = 'vscode' WHERE id = ?`).run(CHILD);
    }
  });

  it('trace_lineage shows the subagent under its parent', async () => {
    const down = await call('trace_lineage', { session_id: A });
    expect(down.body.descendants.map((d: Json) => [d.session_id, d.label, d.relation, d.started_by_tool])).toEqual([[CHILD, 'runSubagent-Explore', 'child', 'runSubagent']]);
    const up = await call('trace_lineage', { session_id: CHILD });
    expect(up.body.ancestors.map((n: Json) => n.session_id)).toEqual([A]);
  });

  it('customizations names the skipped skill, its reason and the fix', async () => {
    const { body } = await call('customizations', { skipped_only: true });
    expect(body.customizations).toHaveLength(1);
    expect(body.customizations[0]).toMatchObject({ kind: 'skill', name: 'testing2', status: 'skipped', reason: 'name-mismatch', sessions: 1, session_ids: [A] });
    expect(body.customizations[0].fix).toBe('the name: in its front matter differs from its folder name; make them the same (rename the folder or change name:), then start a new chat');
    const all = await call('customizations', { session_id: A });
    expect(all.body.customizations.map((c: Json) => [c.name, c.status])).toEqual([
      ['testing2', 'skipped'],
      ['troubleshoot', 'loaded'],
    ]);
    expect(all.body.folders_searched).toEqual({ skill: ['/w/.github/skills'] });
  });

  it('sql answers a SELECT over Chronicle\'s tables and refuses a DELETE', async () => {
    const ok = await call('sql', { query: "SELECT id FROM sessions WHERE id = 'bbbbbbbb-0000-4000-8000-00000000000b'" });
    expect(ok.body).toMatchObject({ columns: ['id'], rows: [[B]], truncated: false });
    const del = await call('sql', { query: 'DELETE FROM sessions' });
    expect(del.r.isError).toBe(true);
    expect(del.body.text).toBe('only a SELECT or WITH statement can run here, not "delete" (not_select)');
    const bad = await call('sql', { query: 'SELECT nope FROM nowhere' });
    expect(bad.r.isError).toBe(true);
    expect(bad.body.text).toMatch(/no such table: nowhere/);
  });

  it('bad arguments are tool errors that say what to fix, never a crash', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search_sessions', {}, /query/],
      ['search_sessions', { query: 'x', limit: 31 }, /limit is at most 30/],
      ['search_sessions', { query: 'x', window: 'forever' }, /window/],
      ['get_session', { session_id: 'no-such-session' }, /no session no-such-session in the index/],
      ['get_events', { session_id: A, limit: 101 }, /limit is at most 100/],
      ['get_events', { session_id: A, max_chars: 20_001 }, /max_chars is at most 20,000/],
      ['get_events', { session_id: A, from: 0, around_event: 1 }, /either from or around_event/],
      ['get_events', { session_id: A, around_event: 999_999 }, /event 999999 is not among this session's rows/],
      ['slowest_calls', { type: 'nope' }, /type/],
      ['error_groups', { cursor: 'abc' }, /cursor is the next_cursor/],
      ['latency_stats', { by: 'hat' }, /by/],
      ['trace_lineage', { session_id: 'missing' }, /no session missing in the index/],
      ['customizations', { session_id: 'missing' }, /no session missing/],
      ['sql', { query: '' }, /query is required/],
    ];
    for (const [name, args, re] of cases) {
      const { r, body } = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(body.text, `${name} ${JSON.stringify(args)}`).toMatch(re);
    }
    // the server still answers after every one of them
    expect((await call('latency_stats', {})).r.isError).toBeFalsy();
  });

  it('every answer stays within 30,000 characters and says when it was cut', async () => {
    const { r, body } = await call('get_events', { session_id: A, limit: 100, max_chars: 20_000 });
    const text = (r.content[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(body.cut).toMatch(/^output cut to stay within 30,000 characters: 2 long values shortened to 4000 characters;/);
    const read = body.rows.find((x: Json) => x.name === 'read_file');
    expect(read.attrs.result.startsWith('x'.repeat(4000) + '… [cut: ')).toBe(true);
  });
});

describe('chronoscope mcp over stdio', () => {
  it('an SDK client spawns `chronoscope mcp --db FILE --no-index`, lists the tools, searches and is refused a DELETE', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'server', 'main.ts'), 'mcp', '--db', fx.dbPath, '--no-index', '--port', '7399'],
      cwd: repoRoot,
      stderr: 'pipe',
    });
    const c = new Client({ name: 'stdio-test', version: '1' });
    await c.connect(transport);
    try {
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
      const found = (await c.callTool({ name: 'search_sessions', arguments: { query: 'parseDate' } })) as CallToolResult;
      const body = JSON.parse((found.content[0] as { text: string }).text) as Json;
      expect(body.groups.flatMap((g: Json) => g.sessions.map((s: Json) => s.session_id))).toEqual([B]);
      expect(body.groups[0].sessions[0].link).toMatch(/^http:\/\/127\.0\.0\.1:7399\/session\//);
      const del = (await c.callTool({ name: 'sql', arguments: { query: 'DELETE FROM events' } })) as CallToolResult;
      expect(del.isError).toBe(true);
    } finally {
      await c.close();
    }
  }, 60_000);
});
