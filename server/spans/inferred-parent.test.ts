// A row placed under its parent by the shape of its span id, not by its parentSpanId, says so
// (SpanRow.inferredParent): turn entries (turn_start-<agent>-<n>, whose parentSpanId is the agent's *parent*)
// and agent_response entries (agent-msg-<chat>) whose parentSpanId names no entry.
import { afterEach, describe, expect, it } from 'vitest';
import { SpanListQuery } from '../../shared/api';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { listSpans } from './list-spans';

const S = 'aaaaaaaa-1111-4111-8111-000000000001';
const T0 = 1_775_000_000_000;
const span = (n: number) => n.toString(16).padStart(16, '0');

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const ev = (ts: number, type: string, name: string, spanId: string, parentSpanId: string | undefined, attrs: object = {}) =>
  line({ ts: T0 + ts, dur: 0, sid: S, type, name, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs });
const answer = (text: string) => ({ response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]) });

describe('inferredParent on span rows', () => {
  it('is true exactly for the rows placed by their id', async () => {
    const r = span(1);
    const sub = span(4);
    fx = await fixtureDb({
      [`${S}/main.jsonl`]:
        ev(0, 'user_message', 'user_message', r, undefined, { content: 'go' }) +
        ev(1, 'turn_start', 'turn_start:0', `turn_start-${r}-0`, undefined, { turnId: '0' }) +
        ev(2, 'llm_request', 'chat:gpt-4.1', span(2), r, { model: 'gpt-4.1' }) +
        // parentSpanId names the request: placed by it
        ev(3, 'agent_response', 'agent_response', `agent-msg-${span(2)}`, r, answer('first')) +
        ev(4, 'llm_request', 'chat:gpt-4.1', span(3), r, { model: 'gpt-4.1' }) +
        // parentSpanId names nothing (the span was evicted from the writer's map): placed beside its model call
        ev(5, 'agent_response', 'agent_response', `agent-msg-${span(3)}`, span(99), answer('second')) +
        ev(6, 'turn_end', 'turn_end:0', `turn_end-${r}-0`, undefined, { turnId: '0' }) +
        // a subagent's turn: its parentSpanId is the subagent's parent (the request), its id names the subagent
        ev(7, 'subagent', 'Explore', sub, r, { agentName: 'Explore' }) +
        ev(8, 'turn_start', 'turn_start:0', `turn-start-${sub}-0`, r, { turnId: 0 }) +
        // a turn whose parentSpanId already names the span its id names: placed by parentSpanId
        ev(9, 'turn_end', 'turn_end:0', `turn-end-${sub}-0`, sub, { turnId: 0 }),
    });
    const page = listSpans(fx.db, S, { ...SpanListQuery.parse({ fold: 'none' }), offset: 0, limit: 100 });
    expect(page.rows.map((row) => [row.type, row.depth, row.inferredParent])).toEqual([
      ['user_message', 0, false],
      ['turn_start', 1, true],
      ['llm_request', 1, false],
      ['agent_response', 1, false],
      ['llm_request', 1, false],
      ['agent_response', 1, true],
      ['turn_end', 1, true],
      ['subagent', 1, false],
      ['turn_start', 2, true],
      ['turn_end', 2, false],
    ]);
  });
});
