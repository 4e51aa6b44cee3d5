// Span ids are per-window counters (FORMAT §10.2): an unrelated session holds a tool call with the same span id
// as the runSubagent call that started a child. The child's parent is the session in its own folder.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

const T = 1_775_000_000_000;
const A = 'aaaaaaaa-1111-4111-8111-000000000001';
const B = 'bbbbbbbb-2222-4222-8222-000000000002';
const Z = '00000000-2222-4222-8222-000000000000';
const C = 'cccccccc-3333-4333-8333-000000000003';
const span = (n: number) => n.toString(16).padStart(16, '0');
const ev = (sid: string, ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object = {}) =>
  line({ ts: T + ts, dur: 10, sid, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs });

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('lineage when span ids collide across sessions', () => {
  it('a child stays under the session whose tool call started it', async () => {
    const unrelated = (sid: string) => ev(sid, 0, 'user_message', 'user_message', span(1), undefined, { content: 'other work' }) + ev(sid, 5, 'tool_call', 'runSubagent', span(2), span(1), { args: '{}' });
    fx = await fixtureDb({
      [`ws0:${Z}/main.jsonl`]: unrelated(Z),
      [`${A}/main.jsonl`]:
        ev(A, 100, 'user_message', 'user_message', span(1), undefined, { content: 'explore' }) +
        ev(A, 110, 'child_session_ref', 'runSubagent-Explore', `child-ref-${C}`, span(2), { childSessionId: C, childLogFile: `runSubagent-Explore-${C}.jsonl`, label: 'runSubagent-Explore' }) +
        ev(A, 105, 'tool_call', 'runSubagent', span(2), span(1), { args: '{"agentName":"Explore"}' }),
      [`${A}/runSubagent-Explore-${C}.jsonl`]:
        line({ v: 1, ts: T + 111, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { parentSessionId: A, label: 'runSubagent-Explore' } }) +
        ev(C, 112, 'subagent', 'Explore', span(3), span(2), { agentName: 'Explore' }),
      [`ws2:${B}/main.jsonl`]: unrelated(B),
    });
    expect(fx.db.prepare('SELECT child_id, parent_id, source, tool_span_id FROM session_edges').all()).toEqual([
      { child_id: C, parent_id: A, source: 'tool_span', tool_span_id: span(2) },
    ]);
    expect(fx.db.prepare('SELECT id, child_count FROM sessions ORDER BY id').all()).toEqual([
      { id: Z, child_count: 0 },
      { id: A, child_count: 1 },
      { id: B, child_count: 0 },
      { id: C, child_count: 0 },
    ]);
  });

  it('a resumed run reusing a span id: the child is started by the tool call of the run that wrote its ref', async () => {
    const run1 = (o: string) => o.replace(/}\n$/, ',"rIdx":1}\n');
    fx = await fixtureDb({
      [`${A}/main.jsonl`]:
        ev(A, 0, 'user_message', 'user_message', span(1), undefined, { content: 'first run' }) +
        ev(A, 5, 'tool_call', 'read_file', span(2), span(1), { args: '{}' }) +
        run1(ev(A, 90_000, 'user_message', 'user_message', span(1), undefined, { content: 'second run' })) +
        run1(ev(A, 90_010, 'child_session_ref', 'runSubagent-Explore', `child-ref-${C}`, span(2), { childSessionId: C, label: 'runSubagent-Explore' })) +
        run1(ev(A, 90_005, 'tool_call', 'runSubagent', span(2), span(1), { args: '{"agentName":"Explore"}' })),
      [`${A}/runSubagent-Explore-${C}.jsonl`]: ev(C, 90_011, 'subagent', 'Explore', span(1), span(2), { agentName: 'Explore' }),
    });
    expect(fx.db.prepare('SELECT child_id, parent_id, source, tool_name FROM session_edges').all()).toEqual([{ child_id: C, parent_id: A, source: 'tool_span', tool_name: 'runSubagent' }]);
  });
});
