// Tool-loop iterations per request from turn entries in both id forms (FORMAT §3.2, §10.3): the code writes
// `turn_start-<agentSpanId>-<n>`, the troubleshoot skill's example `turn-start-<agentSpanId>-<n>`; `attrs.turnId`
// is a string or a number, and the name `turn_start:<n>` or a bare `turn_start`.
import { afterEach, describe, expect, it } from 'vitest';
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
    const under = tree.nodes
      .filter((n) => n.entry.type.startsWith('turn_'))
      .map((n) => [n.entry.name, tree.nodes[n.parent]?.entry.spanId ?? null, n.orphan]);
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
});
