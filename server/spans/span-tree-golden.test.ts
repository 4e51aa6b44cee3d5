// The span-tree API's answers, pinned as JSON files: any change to how the tree is held in memory (issue 19.3,
// the compact tree) must leave /spans, /spans/overview and /spans/seek byte-identical.
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { cliFixtureText, FIXTURE_ORDER, FIXTURE_SESSION_ID } from '../test-support/cli-session-tree';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { treeLoad } from './tree-cache';

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';
const C = 'cccccccc-3333-4333-8333-333333333333';
const T0 = 1_775_000_000_000;
// Span ids are counters restarting at 0000000000000001 in every session (FORMAT §10.2): A, B and C collide.
const id = (n: number) => n.toString(16).padStart(16, '0');
const ev = (sid: string, ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object, more: object = {}) =>
  line({ ts: T0 + ts, dur: 0, sid, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs, ...more });

function session(sid: string, turnForm: 'turn_start' | 'turn-start', turnIdAsNumber: boolean, child?: string): string {
  let out = line({ v: 1, ts: T0, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.44.0' } });
  out += 'not json at all\n';
  for (let r = 0; r < 3; r++) {
    const base = r * 10_000;
    const agent = id(r * 20 + 1);
    out += ev(sid, base + 100, 'user_message', 'user_message', agent, undefined, { content: `request ${r} of ${sid.slice(0, 4)} ${'x'.repeat(r === 2 ? 5000 : 10)}${r === 2 ? '[truncated]' : ''}` });
    for (let t = 0; t < 2; t++) {
      const turnId = turnIdAsNumber ? t : String(t);
      const endForm = turnForm === 'turn_start' ? 'turn_end' : 'turn-end';
      out += ev(sid, base + 110 + t * 1000, 'turn_start', `turn_start:${t}`, `${turnForm}-${agent}-${t}`, undefined, { turnId });
      const chat = id(r * 20 + 2 + t * 3);
      out += ev(sid, base + 120 + t * 1000, 'llm_request', 'chat:gpt-4.1', chat, agent, { model: 'gpt-4.1', inputTokens: 1000 + t, outputTokens: 50, ttft: 300 }, { dur: 700, ...(r === 1 && t === 1 ? { status: 'error' } : {}) });
      out += ev(sid, base + 830 + t * 1000, 'agent_response', 'agent_response', `agent-msg-${chat}`, agent, { response: '[]' });
      const tool = id(r * 20 + 3 + t * 3);
      out += ev(sid, base + 840 + t * 1000, 'tool_call', t === 0 ? 'read_file' : 'runSubagent', tool, agent, { args: '{}', result: 'ok' }, { dur: 100 });
      if (child && r === 0 && t === 1) out += ev(sid, base + 845 + t * 1000, 'child_session_ref', 'runSubagent-Explore', `child-ref-${child}`, tool, { childSessionId: child, childLogFile: `runSubagent-Explore-${child}.jsonl` });
      out += ev(sid, base + 990 + t * 1000, 'turn_end', `turn_end:${t}`, `${endForm}-${agent}-${t}`, undefined, { turnId });
    }
  }
  return out;
}

const CHILD =
  line({ v: 1, ts: T0 + 1850, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { parentSessionId: A } }) +
  ev(C, 1851, 'subagent', 'Explore', id(1), id(6), { agentName: 'Explore' }, { dur: 80 }) +
  ev(C, 1852, 'llm_request', 'chat:gpt-4o-mini', id(2), id(1), { model: 'gpt-4o-mini' }, { dur: 40 }) +
  ev(C, 1900, 'tool_call', 'grep_search', id(3), id(1), { args: '{}' }, { dur: 5, status: 'error' });

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

async function answers(): Promise<string> {
    fx = await fixtureDb(
      {
        [`${A}/main.jsonl`]: session(A, 'turn_start', false, C),
        [`${A}/runSubagent-Explore-${C}.jsonl`]: CHILD,
        [`ws2:${B}/main.jsonl`]: session(B, 'turn-start', true),
      },
      { cli: { [`${FIXTURE_SESSION_ID}/events.jsonl`]: FIXTURE_ORDER.map((f) => cliFixtureText(f)).join('') }, mtimeMs: T0 + 60_000 },
    );
    const app = createApp(testContext(fx.db, fx.dbPath));
    const out: Record<string, unknown> = {};
    for (const sid of [A, B, C, FIXTURE_SESSION_ID]) {
      for (const url of [
        `/api/sessions/${sid}/spans`,
        `/api/sessions/${sid}/spans?fold=none&offset=2&limit=7`,
        `/api/sessions/${sid}/spans?fold=all`,
        `/api/sessions/${sid}/spans?type=tool_call,llm_request&minDur=50`,
        `/api/sessions/${sid}/spans?status=error`,
        `/api/sessions/${sid}/spans?q=grep`,
        `/api/sessions/${sid}/spans/overview`,
        `/api/sessions/${sid}/spans/seek?from=0&dir=next&what=error`,
        `/api/sessions/${sid}/spans/seek?from=30&dir=prev&what=error&fold=all`,
        `/api/sessions/${sid}/spans/seek?from=0&dir=next&what=match&q=read`,
      ]) {
        const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
        out[url] = { status: res.status, body: await res.json() };
      }
    }
    return JSON.stringify(out, null, 1);
}

describe('span-tree API answers (golden)', () => {
  it('are byte-identical for colliding ids, both turn-id forms, child logs, garbage lines and a CLI session', async () => {
    await expect(await answers()).toMatchFileSnapshot('__snapshots__/span-tree-golden.json');
  });

  it('are the same when the tree is loaded a few rows per query, by id range or by session (a large family)', async () => {
    const saved = { ...treeLoad };
    try {
      for (const maxRangeWalk of [Number.POSITIVE_INFINITY, 0]) {
        Object.assign(treeLoad, { rangeRows: 3, chunk: 4, maxRangeWalk });
        await expect(await answers()).toMatchFileSnapshot('__snapshots__/span-tree-golden.json');
      }
    } finally {
      Object.assign(treeLoad, saved);
    }
  });
});
