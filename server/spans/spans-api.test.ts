import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventDetail, SpanListResponse, SpanOverview, SpanSeekResponse } from '../../shared/api';
import { createApp } from '../app';
import { testContext } from '../test-support/test-app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { allNodes, buildSpanTree, type SpanEntry } from './span-tree';
import { buildTimings } from './tree-cache';

const P = '11111111-1111-4111-8111-111111111111';
const C = '22222222-2222-4222-8222-222222222222';
const T = '33333333-3333-4333-8333-333333333333';
const T0 = 1_775_000_000_000;

const ev = (sid: string, ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object, more: object = {}) =>
  line({ ts: T0 + ts, dur: 0, sid, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs, ...more });

// main.jsonl of P: one request with two tool-loop iterations; the second threw (no turn_end). The
// discovery line is repeated in the same file (dup 2, hidden). runSubagent (Y) is written when it ends.
const MAIN =
  line({ v: 1, ts: T0, dur: 0, sid: P, type: 'session_start', name: 'session_start', spanId: `session-start-${P}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0' } }) +
  ev(P, 5, 'discovery', 'Load Instructions', 'core-1', undefined, { details: 'loaded 2 instructions', category: 'discovery', source: 'core' }) +
  ev(P, 5, 'discovery', 'Load Instructions', 'core-1', undefined, { details: 'loaded 2 instructions', category: 'discovery', source: 'core' }) +
  ev(P, 100, 'user_message', 'user_message', 'R', undefined, { content: 'find the retry bug in http.ts' }) +
  ev(P, 110, 'turn_start', 'turn_start:0', 'turn_start-R-0', undefined, { turnId: '0' }) +
  ev(P, 120, 'llm_request', 'chat:gpt-4.1', 'C1', 'R', { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 50, ttft: 300, systemPromptFile: 'system_prompt_0.json', toolsFile: 'tools_0.json' }, { dur: 900 }) +
  ev(P, 1020, 'agent_response', 'agent_response', 'agent-msg-C1', 'R', { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'runSubagent', arguments: '{}' }] }]) }) +
  ev(P, 1040, 'child_session_ref', 'runSubagent-Explore', `child-ref-${C}`, 'Y', { childSessionId: C, childLogFile: `runSubagent-Explore-${C}.jsonl`, label: 'runSubagent-Explore' }) +
  ev(P, 1030, 'tool_call', 'runSubagent', 'Y', 'R', { args: '{"agentName":"Explore","prompt":"look for retries"}', result: 'found it' }, { dur: 2000 }) +
  ev(P, 3100, 'turn_end', 'turn_end:0', 'turn_end-R-0', undefined, { turnId: '0' }) +
  ev(P, 3110, 'turn_start', 'turn_start:1', 'turn_start-R-1', undefined, { turnId: '1' }) +
  ev(P, 3120, 'llm_request', 'chat:gpt-4.1', 'C2', 'R', { model: 'gpt-4.1', error: 'Request timed out' }, { dur: 30000, status: 'error' });

// The subagent's own log: its requests hang off its span S, which hangs off the tool call Y in main.jsonl.
const CHILD =
  line({ v: 1, ts: T0 + 1041, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { parentSessionId: P, label: 'runSubagent-Explore' } }) +
  ev(C, 1050, 'user_message', 'user_message', 'S', 'Y', { content: 'look for retries' }) +
  ev(C, 1060, 'llm_request', 'chat:gpt-4o-mini', 'C3', 'S', { model: 'gpt-4o-mini', inputTokens: 500, outputTokens: 20 }, { dur: 400 }) +
  ev(C, 1500, 'tool_call', 'grep_search', 'T3', 'S', { args: '{"query":"retryDelay"}', result: 'src/http.ts:42 const retryDelay = 0xDEADBEEF' }, { dur: 30 }) +
  ev(C, 1045, 'subagent', 'Explore', 'S', 'Y', { agentName: 'Explore', description: 'Explore the code' }, { dur: 1900 });

// The title child: no tool span; its model call's parent (the title request's agent span) is never written.
const TITLE =
  line({ v: 1, ts: T0 + 101, dur: 0, sid: T, type: 'session_start', name: 'session_start', spanId: `session-start-${T}`, status: 'ok', attrs: { parentSessionId: P, label: 'title' } }) +
  ev(T, 102, 'llm_request', 'chat:gpt-4o-mini', 'CT', 'AT', { model: 'gpt-4o-mini', inputTokens: 90, outputTokens: 8 }, { dur: 200 }) +
  ev(T, 302, 'agent_response', 'agent_response', 'agent-msg-CT', 'AT', { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Fix the retry bug' }] }]) });

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

async function setup() {
  fx = await fixtureDb({
    [`${P}/main.jsonl`]: MAIN,
    [`${P}/runSubagent-Explore-${C}.jsonl`]: CHILD,
    [`${P}/title-${T}.jsonl`]: TITLE,
    [`${P}/system_prompt_0.json`]: JSON.stringify({ content: 'You are an expert programmer.' }),
  });
  const ctx = testContext(fx.db, fx.dbPath);
  const app = createApp(ctx);
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    expect(res.status, `${url} ${res.status === status ? "" : await res.clone().text()}`).toBe(status);
    return (await res.json()) as T;
  };
  return { fx, get };
}

const idByName = (r: SpanListResponse, name: string, n = 0) => r.rows.filter((x) => x.name === name)[n].id;
const drawRows = (r: SpanListResponse) => r.rows.map((x) => `${'  '.repeat(x.depth)}${x.name}${x.collapsed ? ' +' : ''}`);

describe('GET /api/sessions/:id/spans', () => {
  it('serves the tree of the session and its child logs, subagents folded', async () => {
    const { get } = await setup();
    const r = await get<SpanListResponse>(`/api/sessions/${P}/spans`);
    expect(drawRows(r)).toEqual([
      'session_start',
      'Load Instructions',
      'user_message',
      '  turn_start:0',
      '  chat:gpt-4.1',
      '  agent_response',
      '  runSubagent',
      '    runSubagent-Explore',
      '    session_start',
      '    Explore +',
      '  turn_end:0',
      '  turn_start:1',
      '  chat:gpt-4.1',
      'session_start +', // the title child: a small branch of its own, folded
    ]);
  });

  it('holds every event of every file exactly once, the in-file repeat hidden', async () => {
    const { fx, get } = await setup();
    const r = await get<SpanListResponse>(`/api/sessions/${P}/spans?fold=none&limit=500`);
    const lineCount = (MAIN + CHILD + TITLE).trim().split('\n').length;
    expect(r.stats).toMatchObject({ events: lineCount - 1, hiddenRepeats: 1, sessions: 3, orphans: 0, errors: 1 });
    expect(r.total).toBe(lineCount - 1);
    const ids = r.rows.map((x) => x.id).sort((a, b) => a - b);
    const fromDb = (fx.db.prepare('SELECT id FROM events WHERE dup < 2 ORDER BY id').all() as { id: number }[]).map((x) => x.id);
    expect(ids).toEqual(fromDb);
  });

  it('gives each row its columns and a short label', async () => {
    const { get } = await setup();
    const r = await get<SpanListResponse>(`/api/sessions/${P}/spans?fold=none`);
    const grep = r.rows.find((x) => x.name === 'grep_search')!;
    expect(grep).toMatchObject({ type: 'tool_call', tool: 'grep_search', status: 'ok', start: T0 + 1500, duration: 30, depth: 3, sessionId: C, label: 'retryDelay' });
    const chat = r.rows.find((x) => x.name === 'chat:gpt-4.1')!;
    expect(chat).toMatchObject({ model: 'gpt-4.1', tokensIn: 1000, tokensOut: 50, ttft: 300, label: '1000 → 50 tokens · ttft 300ms' });
    expect(r.rows.find((x) => x.type === 'user_message' && x.depth === 0)!.label).toBe('find the retry bug in http.ts');
    expect(r.rows.find((x) => x.type === 'agent_response' && x.sessionId === P)!.label).toBe('→ runSubagent');
    expect(r.rows.filter((x) => x.status === 'error').map((x) => x.label)).toEqual(['Request timed out']);
    const request = r.rows.find((x) => x.type === 'user_message' && x.depth === 0)!;
    expect(request.subtreeEnd).toBe(T0 + 3120 + 30000);
  });

  it('expands a subagent when its id is toggled, and windows by offset and limit', async () => {
    const { get } = await setup();
    const folded = await get<SpanListResponse>(`/api/sessions/${P}/spans`);
    const explore = idByName(folded, 'Explore');
    const open = await get<SpanListResponse>(`/api/sessions/${P}/spans?toggled=${explore}`);
    expect(open.total).toBe(folded.total + 3);
    const page = await get<SpanListResponse>(`/api/sessions/${P}/spans?toggled=${explore}&offset=10&limit=3`);
    expect(page.rows.map((x) => [x.index, x.name])).toEqual([
      [10, 'user_message'],
      [11, 'chat:gpt-4o-mini'],
      [12, 'grep_search'],
    ]);
    expect(page.total).toBe(open.total);
  });

  it('reveals a deep-linked event inside a folded child log', async () => {
    const { fx, get } = await setup();
    const grep = (fx.db.prepare("SELECT id FROM events WHERE name = 'grep_search'").get() as { id: number }).id;
    const r = await get<SpanListResponse>(`/api/sessions/${P}/spans?reveal=${grep}&limit=500`);
    expect(r.revealIndex).not.toBeNull();
    expect(r.rows[r.revealIndex!].id).toBe(grep);
    const explore = idByName(r, 'Explore');
    expect(r.revealOpened).toEqual([explore]);
    // The child session opened on its own finds it too.
    const child = await get<SpanListResponse>(`/api/sessions/${C}/spans?reveal=${grep}`);
    expect(child.rows[child.revealIndex!].id).toBe(grep);
    expect(child.stats).toMatchObject({ sessions: 1, orphans: 0 });
  });

  it('filters on the server and keeps the ancestors of each match', async () => {
    const { get } = await setup();
    const errors = await get<SpanListResponse>(`/api/sessions/${P}/spans?status=error`);
    expect(drawRows(errors)).toEqual(['user_message', '  chat:gpt-4.1']);
    expect(errors.rows.map((x) => x.match)).toEqual([false, true]);
    expect(errors.matched).toBe(1);
    // Text from a tool result inside the folded subagent (search index, case-insensitive substring).
    const text = await get<SpanListResponse>(`/api/sessions/${P}/spans?q=deadbeef`);
    expect(drawRows(text)).toEqual(['user_message', '  runSubagent', '    Explore', '      grep_search']);
    const models = await get<SpanListResponse>(`/api/sessions/${P}/spans?model=gpt-4o-mini&fold=none`);
    expect(models.matched).toBe(2);
    const slow = await get<SpanListResponse>(`/api/sessions/${P}/spans?minDur=1000&type=tool_call,llm_request`);
    expect(slow.rows.filter((x) => x.match).map((x) => x.name)).toEqual(['runSubagent', 'chat:gpt-4.1']);
    const tool = await get<SpanListResponse>(`/api/sessions/${P}/spans?tool=grep_search`);
    expect(tool.rows.at(-1)!.name).toBe('grep_search');
  });

  it('answers an unknown session and bad parameters with the one error body', async () => {
    const { get } = await setup();
    expect(await get(`/api/sessions/nope/spans`, 404)).toMatchObject({ error: { code: 'not_found' } });
    expect(await get(`/api/sessions/${P}/spans?limit=100000`, 400)).toMatchObject({ error: { code: 'bad_request' } });
    expect(await get(`/api/sessions/${P}/spans?toggled=1,x`, 400)).toMatchObject({ error: { code: 'bad_request' } });
    expect(await get(`/api/sessions/nope/spans/overview`, 404)).toMatchObject({ error: { code: 'not_found' } });
    expect(await get(`/api/events/abc`, 400)).toMatchObject({ error: { code: 'bad_request' } });
    expect(await get(`/api/events/999999`, 404)).toMatchObject({ error: { code: 'not_found' } });
    expect(await get(`/api/events/1?maxChars=3`, 400)).toMatchObject({ error: { code: 'bad_request' } });
  });

  it('grows in place when the log grows: a new version with the new rows', async () => {
    const { fx, get } = await setup();
    const before = await get<SpanListResponse>(`/api/sessions/${P}/spans`);
    fs.appendFileSync(path.join(fx.logsDir(), P, 'main.jsonl'), ev(P, 40000, 'user_message', 'user_message', 'R2', undefined, { content: 'and now the tests' }));
    await fx.reindex();
    const after = await get<SpanListResponse>(`/api/sessions/${P}/spans`);
    expect(after.version).not.toBe(before.version);
    expect(after.total).toBe(before.total + 1);
    expect(after.rows.at(-1)!.label).toBe('and now the tests');
    // only the appended row was read from the database; the tree matches a build from scratch
    expect(buildTimings.incremental).toBe(1);
    const fromScratch = buildSpanTree(
      (fx.db.prepare('SELECT id, type, name, span_id spanId, parent_span_id parentSpanId, status, ts, dur, dup, session_num FROM events ORDER BY id').all() as (SpanEntry & { session_num: number })[]).map((e) => ({
        ...e,
        sessionId: (fx!.db.prepare('SELECT id FROM sessions WHERE num = ?').get(e.session_num) as { id: string }).id,
        model: null,
        tool: null,
        ttft: null,
        tokensIn: null,
        tokensOut: null,
      })),
      { rootSessionId: P },
    );
    const full = await get<SpanListResponse>(`/api/sessions/${P}/spans?fold=none&limit=500`);
    expect(full.rows.map((r) => r.id)).toEqual(allNodes(fromScratch).map((n) => n.entry.id));
  });
});

describe('GET /api/sessions/:id/spans/overview and /seek', () => {
  it('summarizes requests with their tool-loop iterations, and the time axis', async () => {
    const { get } = await setup();
    const o = await get<SpanOverview>(`/api/sessions/${P}/spans/overview`);
    expect(o.requests).toEqual([
      expect.objectContaining({ label: 'find the retry bug in http.ts', iterations: 2, unfinished: 1, errors: 1, start: T0 + 100, end: T0 + 3120 + 30000 }),
    ]);
    expect(o.axis).toMatchObject({ start: T0, end: T0 + 3120 + 30000 });
    expect(o.histogram.bins.reduce((a, b) => a + b, 0)).toBe(o.stats.events);
    expect(o.models).toEqual(['gpt-4.1', 'gpt-4o-mini']);
    expect([...o.sessionIds].sort()).toEqual([P, C, T].sort());
    expect(o.tools.map((t) => t.tool)).toContain('Explore');
  });

  it('seeks the next and previous error from a row', async () => {
    const { get } = await setup();
    const r = await get<SpanListResponse>(`/api/sessions/${P}/spans`);
    const next = await get<SpanSeekResponse>(`/api/sessions/${P}/spans/seek?from=0&dir=next`);
    expect(r.rows[next.index!].status).toBe('error');
    expect(await get<SpanSeekResponse>(`/api/sessions/${P}/spans/seek?from=${next.index}&dir=next`)).toEqual({ index: null, id: null, opened: [] });
    const prev = await get<SpanSeekResponse>(`/api/sessions/${P}/spans/seek?from=-1&dir=prev`);
    expect(prev.id).toBe(next.id);
  });
});

describe('GET /api/events/:id', () => {
  it('returns the event whole: attrs, raw line, file and line number, companion files', async () => {
    const { fx, get } = await setup();
    const id = (fx.db.prepare("SELECT id FROM events WHERE span_id = 'C1'").get() as { id: number }).id;
    const d = await get<EventDetail>(`/api/events/${id}`);
    expect(d).toMatchObject({ id, sessionId: P, type: 'llm_request', model: 'gpt-4.1', ttft: 300, cut: {} });
    expect(d.attrs.systemPromptFile).toBe('system_prompt_0.json');
    expect(JSON.parse(d.raw).spanId).toBe('C1');
    expect(d.file.path.endsWith(`${P}/main.jsonl`)).toBe(true);
    expect(d.file.lineNo).toBe(6);
    const prompt = d.companions.find((c) => c.attr === 'systemPromptFile')!;
    expect(prompt).toMatchObject({ name: 'system_prompt_0.json', kind: 'system_prompt' });
    expect(prompt.id).toBeGreaterThan(0);
    expect(d.companions.find((c) => c.attr === 'toolsFile')).toMatchObject({ name: 'tools_0.json', id: null });
  });

  it('bounds every string with maxChars and says what it cut', async () => {
    const { fx, get } = await setup();
    const id = (fx.db.prepare("SELECT id FROM events WHERE span_id = 'T3'").get() as { id: number }).id;
    const d = await get<EventDetail>(`/api/events/${id}?maxChars=256`);
    expect(d.raw.length).toBe(256);
    expect(d.rawLength).toBeGreaterThan(256);
    expect(d.cut).toEqual({});
    const big = 'x'.repeat(10_000);
    fs.appendFileSync(path.join(fx.logsDir(), P, 'main.jsonl'), ev(P, 50000, 'tool_call', 'run_in_terminal', 'BIG', 'R', { args: '{}', result: big }));
    await fx.reindex();
    const bigId = (fx.db.prepare("SELECT id FROM events WHERE span_id = 'BIG'").get() as { id: number }).id;
    const cut = await get<EventDetail>(`/api/events/${bigId}?maxChars=1000`);
    expect(cut.cut).toEqual({ result: 10_000 });
    expect((cut.attrs.result as string).length).toBe(1000);
    expect((await get<EventDetail>(`/api/events/${bigId}`)).attrs.result).toBe(big);
  });
});
