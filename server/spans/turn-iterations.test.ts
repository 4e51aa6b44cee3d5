// Tool-loop iterations per request from turn entries in both id forms (FORMAT §3.2, §10.3): the code writes
// `turn_start-<agentSpanId>-<n>`, the troubleshoot skill's example `turn-start-<agentSpanId>-<n>`; `attrs.turnId`
// is a string or a number, and the name `turn_start:<n>` or a bare `turn_start`.
import { afterEach, describe, expect, it } from 'vitest';
import { allNodes } from './span-tree';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { spanOverview } from './list-spans';
import { sessionTree } from './tree-cache';

const S = 'aaaaaaaa-1111-4111-8111-000000000001';
const T0 = 1_775_000_000_000;
const span = (n: number) => n.toString(16).padStart(16, '0');

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const user = (spanId: string, content: string, ts: number) =>
  line({ ts: T0 + ts, dur: 0, sid: S, type: 'user_message', name: 'user_message', spanId, status: 'ok', attrs: { content } });
const llm = (spanId: string, parent: string, ts: number) =>
  line({ ts: T0 + ts, dur: 50, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId, parentSpanId: parent, status: 'ok', attrs: { model: 'gpt-4.1' } });
/** A turn entry: `sep` '_' (the code) or '-' (the skill); `turnId` as written; `named` false gives a bare name. */
const turn = (kind: 'start' | 'end', sep: '_' | '-', agent: string, n: number, turnId: string | number, ts: number, named = true) =>
  line({ ts: T0 + ts, dur: 0, sid: S, type: `turn_${kind}`, name: named ? `turn_${kind}:${n}` : `turn_${kind}`, spanId: `turn${sep}${kind}-${agent}-${n}`, status: 'ok', attrs: { turnId } });

describe('iterations per request, both turn-id forms', () => {
  it('counts each request’s iterations and hangs its turn entries under it', async () => {
    const r1 = span(1);
    const r2 = span(4);
    const r3 = span(8);
    fx = await fixtureDb({
      [`${S}/main.jsonl`]:
        // request 1, the code's form, turnId a string: 3 iterations, the last threw (no turn_end)
        user(r1, 'first request', 0) +
        turn('start', '_', r1, 0, '0', 1) + llm(span(2), r1, 2) + turn('end', '_', r1, 0, '0', 60) +
        turn('start', '_', r1, 1, '1', 61) + llm(span(3), r1, 62) + turn('end', '_', r1, 1, '1', 120) +
        turn('start', '_', r1, 2, '2', 121) +
        // request 2, the skill's form, turnId a number and bare names: 2 iterations
        user(r2, 'second request', 1000) +
        turn('start', '-', r2, 0, 0, 1001, false) + llm(span(5), r2, 1002) + turn('end', '-', r2, 0, 0, 1060, false) +
        turn('start', '-', r2, 1, 1, 1061, false) + llm(span(6), r2, 1062) + turn('end', '-', r2, 1, 1, 1120, false) +
        // request 3, the skill's form with names, turnId a number: 1 iteration
        user(r3, 'third request', 2000) + turn('start', '-', r3, 0, 0, 2001) + llm(span(9), r3, 2002) + turn('end', '-', r3, 0, 0, 2060),
    });
    const overview = spanOverview(fx.db, S);
    expect(overview.requests.map((r) => [r.label, r.iterations, r.unfinished])).toEqual([
      ['first request', 3, 1],
      ['second request', 2, 0],
      ['third request', 1, 0],
    ]);
    const { tree } = sessionTree(fx.db, S)!;
    const under = allNodes(tree)
      .filter((n) => n.entry.type.startsWith('turn_'))
      .map((n) => [n.entry.name, allNodes(tree)[n.parent]?.entry.spanId ?? null, n.orphan]);
    expect(under).toEqual([
      ['turn_start:0', r1, false],
      ['turn_end:0', r1, false],
      ['turn_start:1', r1, false],
      ['turn_end:1', r1, false],
      ['turn_start:2', r1, false],
      ['turn_start:0', r2, false],
      ['turn_end:0', r2, false],
      ['turn_start:1', r2, false],
      ['turn_end:1', r2, false],
      ['turn_start:0', r3, false],
      ['turn_end:0', r3, false],
    ]);
    expect(tree.stats.roots).toBe(3);
  });

  it('a child log numbered from 1 again (ids colliding with its parent’s) does not take the parent’s turns', async () => {
    const C = 'cccccccc-3333-4333-8333-000000000003';
    const r = span(1);
    fx = await fixtureDb({
      [`${S}/main.jsonl`]:
        user(r, 'explore it', 0) +
        turn('start', '_', r, 0, '0', 1) + llm(span(2), r, 2) +
        line({ ts: T0 + 3, dur: 0, sid: S, type: 'child_session_ref', name: 'runSubagent-Explore', spanId: `child-ref-${C}`, parentSpanId: span(3), status: 'ok', attrs: { childSessionId: C, label: 'runSubagent-Explore' } }) +
        line({ ts: T0 + 3, dur: 500, sid: S, type: 'tool_call', name: 'runSubagent', spanId: span(3), parentSpanId: r, status: 'ok', attrs: { args: '{}' } }) +
        turn('end', '_', r, 0, '0', 600) +
        turn('start', '-', r, 1, 1, 601) + line({ ts: T0 + 602, dur: 5, sid: S, type: 'tool_call', name: 'read_file', spanId: span(4), parentSpanId: r, status: 'error', attrs: { args: '{}', error: 'ENOENT' } }) + turn('end', '-', r, 1, 1, 620),
      [`${S}/runSubagent-Explore-${C}.jsonl`]:
        line({ v: 1, ts: T0 + 4, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { parentSessionId: S, label: 'runSubagent-Explore' } }) +
        // the child's own counter: its subagent span is 1, like the parent's request, and its tool call 3, like the runSubagent call
        line({ ts: T0 + 5, dur: 400, sid: C, type: 'subagent', name: 'Explore', spanId: span(1), parentSpanId: span(3), status: 'ok', attrs: { agentName: 'Explore' } }) +
        line({ ts: T0 + 6, dur: 50, sid: C, type: 'llm_request', name: 'chat:gpt-4.1', spanId: span(2), parentSpanId: span(1), status: 'ok', attrs: { model: 'gpt-4.1' } }) +
        line({ ts: T0 + 60, dur: 50, sid: C, type: 'tool_call', name: 'grep_search', spanId: span(3), parentSpanId: span(1), status: 'ok', attrs: { args: '{}' } }),
    });
    expect(spanOverview(fx.db, S).requests.map((q) => [q.label, q.iterations, q.unfinished, q.errors])).toEqual([['explore it', 2, 0, 1]]);
    const { tree } = sessionTree(fx.db, S)!;
    const at = allNodes(tree).map((n) => [n.depth, n.entry.sessionId === C ? 'child' : 'main', n.entry.type]);
    expect(at).toEqual([
      [0, 'main', 'user_message'],
      [1, 'main', 'turn_start'],
      [1, 'main', 'llm_request'],
      [1, 'main', 'tool_call'],
      [2, 'main', 'child_session_ref'],
      [2, 'child', 'session_start'],
      [2, 'child', 'subagent'],
      [3, 'child', 'llm_request'],
      [3, 'child', 'tool_call'],
      [1, 'main', 'turn_end'],
      [1, 'main', 'turn_start'],
      [1, 'main', 'tool_call'],
      [1, 'main', 'turn_end'],
    ]);
  });

  it('a resumed run numbers its spans from 1 again (rIdx 1): each run’s request keeps its own iterations', async () => {
    const r = span(1);
    const run1 = (o: string) => o.replace(/}\n$/, ',"rIdx":1}\n');
    fx = await fixtureDb({
      [`${S}/main.jsonl`]:
        user(r, 'before the reload', 0) +
        turn('start', '_', r, 0, '0', 1) + llm(span(2), r, 2) + turn('end', '_', r, 0, '0', 60) +
        turn('start', '_', r, 1, '1', 61) + llm(span(3), r, 62) + turn('end', '_', r, 1, '1', 120) +
        run1(user(r, 'after the reload', 90_000)) +
        run1(turn('start', '_', r, 0, '0', 90_001)) + run1(llm(span(2), r, 90_002)) + run1(turn('end', '_', r, 0, '0', 90_060)),
    });
    expect(spanOverview(fx.db, S).requests.map((q) => [q.label, q.iterations, q.unfinished])).toEqual([
      ['before the reload', 2, 0],
      ['after the reload', 1, 0],
    ]);
    const { tree } = sessionTree(fx.db, S)!;
    expect(allNodes(tree).map((n) => [n.depth, n.entry.type])).toEqual([
      [0, 'user_message'], [1, 'turn_start'], [1, 'llm_request'], [1, 'turn_end'], [1, 'turn_start'], [1, 'llm_request'], [1, 'turn_end'],
      [0, 'user_message'], [1, 'turn_start'], [1, 'llm_request'], [1, 'turn_end'],
    ]);
  });
});
