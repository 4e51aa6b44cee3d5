// The lookups a CLI line costs at ingest (link-cli.ts) run once per line: each must seek an index of its session,
// never scan the events table (a backfill would be quadratic).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { planOf, recordStatements } from '../../test-support/record-statements';
import { fixtureDb, type FixtureDb } from '../../test-support/fixture-db';
import { cliTree, MAIN } from './cli-fixture';
import { makeCliLinker } from './link-cli';
import { normalizeCliEvent } from './normalize-cli';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({}, { cli: cliTree() });
});
afterAll(() => fx.cleanup());

it('a completion, a subagent end, a hook end and a model call each seek their start by an index of the session', () => {
  const num = (fx.db.prepare('SELECT num FROM sessions WHERE id = ?').get(MAIN) as { num: number }).num;
  const at = '2026-11-30T09:00:30.000Z';
  const lines = [
    { type: 'tool.execution_complete', data: { toolCallId: 'call_read', success: true } },
    { type: 'subagent.completed', data: { toolCallId: 'call_task', agentName: 'explore' } },
    { type: 'hook.end', data: { hookInvocationId: 'h1', hookType: 'postToolUse', success: true } },
    { type: 'assistant.message', data: { messageId: 'z', model: 'gpt-5', outputTokens: 1, turnId: '1' } },
  ];
  const recorded = recordStatements(fx.db, () => {
    const linker = makeCliLinker(fx.db);
    // a new linker: its first line of the session replays the session's archived lines (by primary key)
    lines.forEach((l, i) => linker.link(num, normalizeCliEvent({ ...l, id: 'x', timestamp: at }), 1_000_000 + i));
  });
  expect(recorded.length).toBeGreaterThanOrEqual(5);
  expect(recorded.some((r) => r.sql.includes("+id <"))).toBe(true);
  for (const r of recorded) {
    const plan = planOf(fx.db, r).join(' | ');
    expect([r.sql, plan]).not.toEqual([expect.anything(), expect.stringMatching(/(^|\| )SCAN (?!.*VIRTUAL TABLE)/)]);
    if (/FROM (lines|chunks)\b/.test(r.sql)) expect(plan).toMatch(/USING INTEGER PRIMARY KEY/);
    // a start or turn start by its span id: the partial index (the session's index alone read every event of it)
    else if (r.sql.includes('span_id = ?')) expect(plan).toMatch(/^SEARCH events USING INDEX events_cli_spans \(session_num=\? AND span_id=\?\)/);
    else expect(plan).toMatch(/USING (COVERING )?INDEX events_session_ts/);
  }
});
