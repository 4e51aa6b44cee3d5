import { afterEach, describe, expect, it } from 'vitest';
import type { RequestTimeline } from '../../shared/api';
import { createApp } from '../app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { listRequests } from './list-requests';
import { spanOverview } from './list-spans';
import { requestTimeline, requestBreakdowns } from './request-timeline';

const P = '11111111-1111-4111-8111-111111111111';
const C = '22222222-2222-4222-8222-222222222222';
const Q = '44444444-4444-4444-8444-444444444444';
const T0 = 1_775_000_000_000;

const ev = (sid: string, ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object, more: object = {}) =>
  line({ ts: T0 + ts, dur: 0, sid, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs, ...more });

// One request (span ids are the writer's counters, FORMAT §10.2), lines in the order spans end:
//   1000  request R
//   1010  C1 model call, 2000 ms, first token after 500
//   3020  T1 read_file 1000 ms ┐ parallel: the union 3020..4530 is tool time once
//   3030  T2 grep_search 1500 ms┘
//   4600  C2 model call, 1000 ms, no ttft (turn-start-… form, turnId a number)
//   5700  T3 runSubagent 3000 ms: the subagent's own model call (with a ttft) is tool time of this request
//   8800  C3 model call, 700 ms, first token after 200 → the request ends at 9500
const R = '0000000000000001';
const MAIN =
  line({ v: 1, ts: T0, dur: 0, sid: P, type: 'session_start', name: 'session_start', spanId: `session-start-${P}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0' } }) +
  ev(P, 1000, 'user_message', 'user_message', R, undefined, { content: 'why is the build slow?' }) +
  ev(P, 1005, 'turn_start', 'turn_start:0', `turn_start-${R}-0`, undefined, { turnId: '0' }) +
  ev(P, 1010, 'llm_request', 'chat:gpt-4.1', '0000000000000002', R, { model: 'gpt-4.1', inputTokens: 900, outputTokens: 40, ttft: 500 }, { dur: 2000 }) +
  ev(P, 3010, 'agent_response', 'agent_response', 'agent-msg-0000000000000002', R, { response: '[]' }) +
  ev(P, 3020, 'tool_call', 'read_file', '0000000000000003', R, { args: '{"filePath":"/w/a.ts"}', result: 'x'.repeat(5000) + '[truncated]' }, { dur: 1000 }) +
  ev(P, 3030, 'tool_call', 'grep_search', '0000000000000004', R, { args: '{"query":"slow"}', result: 'a.ts:1' }, { dur: 1500 }) +
  'not json at all\n' +
  ev(P, 4590, 'turn_end', 'turn_end:0', `turn_end-${R}-0`, undefined, { turnId: '0' }) +
  ev(P, 4595, 'turn_start', 'turn_start:1', `turn-start-${R}-1`, undefined, { turnId: 1 }) +
  ev(P, 4600, 'llm_request', 'chat:gpt-4.1', '0000000000000005', R, { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 30 }, { dur: 1000 }) +
  ev(P, 5690, 'child_session_ref', 'runSubagent-Explore', `child-ref-${C}`, '0000000000000006', { childSessionId: C, childLogFile: `runSubagent-Explore-${C}.jsonl`, label: 'runSubagent-Explore' }) +
  ev(P, 5700, 'tool_call', 'runSubagent', '0000000000000006', R, { args: '{"agentName":"Explore"}', result: 'done' }, { dur: 3000 }) +
  ev(P, 8800, 'llm_request', 'chat:gpt-4.1', '0000000000000009', R, { model: 'gpt-4.1', inputTokens: 1100, outputTokens: 90, ttft: 200 }, { dur: 700 });

const CHILD =
  line({ v: 1, ts: T0 + 5695, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { parentSessionId: P, label: 'runSubagent-Explore' } }) +
  ev(C, 5800, 'llm_request', 'chat:gpt-4o-mini', '0000000000000008', '0000000000000007', { model: 'gpt-4o-mini', ttft: 100 }, { dur: 2000 }) +
  ev(C, 7850, 'tool_call', 'grep_search', '000000000000000a', '0000000000000007', { args: '{}', result: '' }, { dur: 800 }) +
  ev(C, 5750, 'subagent', 'Explore', '0000000000000007', '0000000000000006', { agentName: 'Explore' }, { dur: 2900 });

// Another session whose counters collide with P's: none of its spans may leak into P's request.
const OTHER =
  ev(Q, 0, 'user_message', 'user_message', R, undefined, { content: 'other' }) +
  ev(Q, 10, 'llm_request', 'chat:gpt-4.1', '0000000000000002', R, { model: 'gpt-4.1', ttft: 5 }, { dur: 99_000 });

let fx: FixtureDb | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

async function timelineOf(name: string, session = P): Promise<RequestTimeline> {
  fx ??= await fixtureDb({ [`${P}/main.jsonl`]: MAIN, [`${P}/runSubagent-Explore-${C}.jsonl`]: CHILD, [`${Q}/main.jsonl`]: OTHER });
  const row = fx.db.prepare('SELECT e.id FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? AND e.ts = ? ORDER BY e.id LIMIT 1');
  const ts: Record<string, [string, number]> = {
    request: [P, 1000], C1: [P, 1010], T1: [P, 3020], T2: [P, 3030], C2: [P, 4600], T3: [P, 5700], C3: [P, 8800],
    subagent: [C, 5750], childCall: [C, 5800], childTool: [C, 7850], sessionStart: [P, 0],
  };
  const [sid, at] = ts[name];
  const id = (row.get(sid, T0 + at) as { id: number }).id;
  return requestTimeline(fx.db, session, id);
}

const idOf = async (name: string) => (await timelineOf(name)).eventId;

describe('requestBreakdown', () => {
  it('splits the request into ttft, generation, model, tool and idle, each ms once', async () => {
    const t = await timelineOf('T2');
    const b = t.request!.breakdown;
    expect({ start: b.start - T0, end: b.end - T0 }).toEqual({ start: 1000, end: 9500 });
    // ttft 500 + 200; generation 1500 + 500; C2 has no ttft; tools 3020..4530 (T1 ∥ T2) + 5700..8700; idle the gaps
    expect({ ttft: b.ttft, generation: b.generation, model: b.model, tool: b.tool, idle: b.idle }).toEqual({ ttft: 700, generation: 2000, model: 1000, tool: 4510, idle: 290 });
    expect(b.ttft! + b.generation! + b.model + b.tool + b.idle).toBe(b.end - b.start);
    expect(t.extent).toEqual({ start: T0 + 3030, end: T0 + 4530 });
  });

  it("lists the request's own model calls with theirs, a missing ttft as null (not 0), the subagent's call not among them", async () => {
    const b = (await timelineOf('C2')).request!.breakdown;
    expect(b.callsTotal).toBe(3);
    expect(b.calls.map((c) => ({ at: c.start - T0, dur: c.dur, ttft: c.ttft, generation: c.generation }))).toEqual([
      { at: 1010, dur: 2000, ttft: 500, generation: 1500 },
      { at: 4600, dur: 1000, ttft: null, generation: null },
      { at: 8800, dur: 700, ttft: 200, generation: 500 },
    ]);
  });

  it("finds the user's request from inside a subagent's child log", async () => {
    expect((await timelineOf('childCall')).request!.id).toBe(await idOf('request'));
  });

  it('has no request for an event outside any (session_start)', async () => {
    expect((await timelineOf('sessionStart')).request).toBeNull();
  });

  it("a request's extent is its whole work (the user_message itself is an instant)", async () => {
    expect((await timelineOf('request')).extent).toEqual({ start: T0 + 1000, end: T0 + 9500 });
  });

  it('answers 404 for an event of another session, 400 for a bad id, through the route', async () => {
    await timelineOf('request');
    const app = createApp(testContext(fx!.db, fx!.dbPath));
    const get = (url: string) => app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    const other = (fx!.db.prepare("SELECT e.id FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? LIMIT 1").get(Q) as { id: number }).id;
    const notHere = await get(`/api/sessions/${P}/spans/timeline?event=${other}`);
    expect(notHere.status).toBe(404);
    expect(((await notHere.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect((await get(`/api/sessions/${P}/spans/timeline?event=abc`)).status).toBe(400);
    const ok = await get(`/api/sessions/${P}/spans/timeline?event=${await idOf('C3')}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as RequestTimeline).request!.breakdown.tool).toBe(4510);
  });
});

describe('criticalPath', () => {
  it('walks back from the end through the span that ended last, then what ended before it started', async () => {
    const path = (await timelineOf('C1')).request!.criticalPath;
    const names: Record<number, string> = {};
    for (const n of ['request', 'C1', 'T1', 'T2', 'C2', 'T3', 'C3', 'subagent', 'childCall', 'childTool']) names[await idOf(n)] = n;
    // T1 overlaps T2 and ended first: T2 decided when C2 could start, T1 did not
    expect(path.map((s) => [names[s.id], s.from - T0, s.to - T0])).toEqual([
      ['request', 1000, 9500],
      ['C1', 1010, 3010],
      ['T2', 3030, 4530],
      ['C2', 4600, 5600],
      ['T3', 5700, 8700],
      ['subagent', 5750, 8650],
      ['childCall', 5800, 7800],
      ['childTool', 7850, 8650],
      ['C3', 8800, 9500],
    ]);
  });
});

describe('one number', () => {
  it("the breakdown's request time is the overview's (the iteration strip) for every request", async () => {
    await timelineOf('request');
    const overview = spanOverview(fx!.db, P);
    expect(overview.requests.length).toBe(1);
    for (const r of overview.requests) {
      const b = requestTimeline(fx!.db, P, r.id).request!.breakdown;
      expect([b.start, b.end]).toEqual([r.start, r.end]);
    }
  });

  it("each request's breakdown spans the requests-only view's duration", async () => {
    await timelineOf('request');
    const { requests } = listRequests(fx!.db, P);
    expect(requests.length).toBe(1);
    for (const r of requests) {
      const b = requestTimeline(fx!.db, P, r.id).request!.breakdown;
      expect(b.end - b.start).toBe(r.duration);
    }
  });

  it("the request rows' totals are the breakdown's", async () => {
    await timelineOf('request');
    const { requests } = requestBreakdowns(fx!.db, P);
    const b = requestTimeline(fx!.db, P, await idOf('request')).request!.breakdown;
    expect(requests).toEqual([{ id: await idOf('request'), start: b.start, end: b.end, ttft: 700, generation: 2000, model: 1000, tool: 4510, idle: 290 }]);
  });
});
