import { afterEach, describe, expect, it } from 'vitest';
import type { RequestListResponse, SessionDetail, SpanOverview } from '../../shared/api';
import { createApp } from '../app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { buildSpanTree, type SpanEntry } from './span-tree';
import { requestTotals } from './request-totals';

const P = '11111111-1111-4111-8111-111111111111';
const C = '22222222-2222-4222-8222-222222222222';
const T0 = 1_775_000_000_000;

const ev = (sid: string, ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object, more: object = {}) =>
  line({ ts: T0 + ts, dur: 0, sid, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs, ...more });

// Two requests as the writer numbers them. The first: two model calls (one failed, one with credits), a
// runSubagent whose child log has a model call (with credits) and a tool; turn ids in both forms. The second:
// one model call without credit data and a tool call whose result was cut at 5,000 characters.
const MAIN =
  line({ v: 1, ts: T0, dur: 0, sid: P, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { copilotVersion: '0.44.0' } }) +
  ev(P, 100, 'user_message', 'user_message', '0000000000000002', undefined, { content: 'find the retry bug' }) +
  ev(P, 110, 'turn_start', 'turn_start:0', 'turn_start-0000000000000002-0', undefined, { turnId: 0 }) +
  ev(P, 120, 'llm_request', 'chat:gpt-4.1', '0000000000000003', '0000000000000002', { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 50, copilotUsageNanoAiu: 2_000_000_000 }, { dur: 900 }) +
  ev(P, 1030, 'tool_call', 'runSubagent', '0000000000000004', '0000000000000002', { args: '{"agentName":"Explore"}', result: 'found it' }, { dur: 2000 }) +
  ev(P, 1040, 'child_session_ref', 'runSubagent-Explore', `child-ref-${C}`, '0000000000000004', { childSessionId: C, childLogFile: `runSubagent-Explore-${C}.jsonl` }) +
  ev(P, 3100, 'turn_end', 'turn_end:0', 'turn-end-0000000000000002-0', undefined, { turnId: '0' }) +
  ev(P, 3120, 'llm_request', 'chat:gpt-4.1', '0000000000000005', '0000000000000002', { model: 'gpt-4.1', error: 'Request timed out' }, { dur: 30000, status: 'error' }) +
  ev(P, 40000, 'user_message', 'user_message', '0000000000000006', undefined, { content: 'now fix it' }) +
  ev(P, 40010, 'llm_request', 'chat:gpt-4.1', '0000000000000007', '0000000000000006', { model: 'gpt-4.1', inputTokens: 3000, outputTokens: 400 }, { dur: 5000 }) +
  ev(P, 45020, 'tool_call', 'read_file', '0000000000000008', '0000000000000006', { args: '{}', result: `${'x'.repeat(5000)}[truncated]` }, { dur: 80 }) +
  '{"not json\n';

// The child log numbers its spans from 1 again: ids collide with the parent's.
const CHILD =
  line({ v: 1, ts: T0 + 1041, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { parentSessionId: P } }) +
  ev(C, 1050, 'user_message', 'user_message', '0000000000000002', undefined, { content: 'look for retries' }) +
  ev(C, 1060, 'llm_request', 'chat:gpt-4o-mini', '0000000000000003', '0000000000000002', { model: 'gpt-4o-mini', inputTokens: 500, outputTokens: 20, copilotUsageNanoAiu: 500_000_000 }, { dur: 400 }) +
  ev(C, 1500, 'tool_call', 'grep_search', '0000000000000004', '0000000000000002', { args: '{"query":"retryDelay"}', result: 'src/http.ts:42' }, { dur: 30 });

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

async function api() {
  fx = await fixtureDb({ [`${P}/main.jsonl`]: MAIN, [`${P}/runSubagent-Explore-${C}.jsonl`]: CHILD });
  const app = createApp(testContext(fx.db, fx.dbPath));
  return async <T>(url: string): Promise<T> => {
    const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    expect(res.status).toBe(200);
    return (await res.json()) as T;
  };
}

describe('requests-only totals', () => {
  it('sums the work under each request, the child session’s included', async () => {
    const get = await api();
    const r = await get<RequestListResponse>(`/api/sessions/${P}/spans/requests`);
    expect(r.requests.map(({ id: _id, ...t }) => t)).toEqual([
      {
        label: 'find the retry bug',
        start: T0 + 100,
        duration: 33_020,
        modelCalls: 3,
        toolCalls: 2,
        tokensIn: 1500,
        tokensOut: 70,
        errors: 1,
        credits: 2.5,
        callsWithoutCredits: 1,
        events: 10,
        sessionId: P,
      },
      {
        label: 'now fix it',
        start: T0 + 40_000,
        duration: 5100,
        modelCalls: 1,
        toolCalls: 1,
        tokensIn: 3000,
        tokensOut: 400,
        errors: 0,
        credits: null,
        callsWithoutCredits: 1,
        events: 2,
        sessionId: P,
      },
    ]);
  });

  it('agrees with the requests table, the session header and the folded request row (one number everywhere)', async () => {
    const get = await api();
    const { requests } = await get<RequestListResponse>(`/api/sessions/${P}/spans/requests`);
    const overview = await get<SpanOverview>(`/api/sessions/${P}/spans/overview`);
    expect(requests.map((r) => [r.id, r.errors])).toEqual(overview.requests.map((r) => [r.id, r.errors]));
    const folded = await get<{ rows: { id: number; descendants: number; type: string }[] }>(`/api/sessions/${P}/spans?fold=all`);
    expect(requests.map((r) => [r.id, r.events])).toEqual(folded.rows.filter((x) => x.type === 'user_message').map((x) => [x.id, x.descendants]));
    // every model call of these logs is under a request: the totals add up to the header's
    const detail = await get<SessionDetail>(`/api/sessions/${P}`);
    const child = await get<SessionDetail>(`/api/sessions/${C}`);
    const sum = (f: (r: (typeof requests)[number]) => number) => requests.reduce((a, r) => a + f(r), 0);
    expect(sum((r) => r.tokensIn ?? 0)).toBe(detail.tokensIn + child.tokensIn);
    expect(sum((r) => r.tokensOut ?? 0)).toBe(detail.tokensOut + child.tokensOut);
    expect(sum((r) => r.credits ?? 0)).toBe((detail.credits ?? 0) + (child.credits ?? 0));
  });

  it('counts a replayed copy of a model call as the other session’s, and no credit data as unknown', () => {
    const base = { sessionId: P, name: '', parentSpanId: null, status: 0, dur: 0, model: null, tool: null, ttft: null, tokensIn: null, tokensOut: null, dup: 0 };
    const entries: SpanEntry[] = [
      { ...base, id: 1, type: 'user_message', spanId: 'R', ts: 0 },
      { ...base, id: 2, type: 'llm_request', spanId: 'A', parentSpanId: 'R', ts: 10, dur: 50, tokensIn: 7 },
      { ...base, id: 3, type: 'llm_request', spanId: 'B', parentSpanId: 'R', ts: 20, dur: 100, tokensIn: 9, dup: 1, status: 1 },
    ];
    const tree = buildSpanTree(entries, { rootSessionId: P });
    const t = requestTotals(tree, 0, new Map());
    expect([t.modelCalls, t.tokensIn, t.errors, t.credits, t.callsWithoutCredits, t.duration]).toEqual([1, 7, 1, null, 1, 120]);
  });

  it('gives a token total no model call reported as null, not 0 (a Copilot CLI call writes output tokens only)', () => {
    const base = { sessionId: P, name: '', parentSpanId: 'R', status: 0, dur: 10, model: 'gpt-5', tool: null, ttft: null, tokensIn: null, tokensOut: null, dup: 0 };
    const entries: SpanEntry[] = [
      { ...base, id: 1, type: 'user_message', spanId: 'R', parentSpanId: null, ts: 0, model: null },
      { ...base, id: 2, type: 'llm_request', spanId: 'A', ts: 10, tokensOut: 120 },
      { ...base, id: 3, type: 'llm_request', spanId: 'B', ts: 20, tokensOut: 30 },
      { ...base, id: 4, type: 'user_message', spanId: 'S', parentSpanId: null, ts: 100, model: null },
      { ...base, id: 5, type: 'tool_call', spanId: 'C', parentSpanId: 'S', ts: 110, model: null, tool: 'bash' },
    ];
    const tree = buildSpanTree(entries, { rootSessionId: P });
    const first = requestTotals(tree, 0, new Map());
    expect([first.modelCalls, first.tokensIn, first.tokensOut]).toEqual([2, null, 150]);
    const second = requestTotals(tree, 3, new Map());
    // no model call at all: no tokens, which is known
    expect([second.modelCalls, second.tokensIn, second.tokensOut]).toEqual([0, 0, 0]);
  });
});
