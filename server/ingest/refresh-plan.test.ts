import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { planOf, recordStatements } from '../test-support/record-statements';
import { MAIN, cliTree } from './cli/cli-fixture';
import { makeSessionRefresher } from './refresh-session';

// A session is refreshed after every batch of its lines, so a statement of the refresh (or of the lineage
// derivation it runs) that scans a whole table makes a backfill quadratic: the scan of `files` by session_id
// did, and cost a fifth of a 700 MB backfill before files_session existed.

const P = 'aaaaaaaa-1111-4111-8111-111111111111';
const C = 'bbbbbbbb-2222-4222-8222-222222222222';
let fx: FixtureDb;
const ev = (sid: string, type: string, spanId: string, parentSpanId: string | undefined, attrs: object, name = type) =>
  line({ ts: 1_700_000_000_000, dur: 5, sid, type, name, spanId, parentSpanId, status: 'ok', attrs });

beforeAll(async () => {
  fx = await fixtureDb({
    [`${P}/main.jsonl`]:
      ev(P, 'session_start', 's0', undefined, { copilotVersion: '0.30.0' }) +
      ev(P, 'user_message', 'u1', undefined, { content: 'fix the retry loop' }) +
      ev(P, 'child_session_ref', `child-ref-${C}`, 't1', { childSessionId: C, label: 'explore' }) +
      ev(P, 'tool_call', 't1', 'u1', { args: '{}', result: 'done' }, 'runSubagent'),
    [`${P}/runSubagent-explore-${C}.jsonl`]:
      ev(C, 'session_start', 'c0', undefined, { parentSessionId: P }) + ev(C, 'subagent', 'a1', 't1', {}, 'explore') + ev(C, 'llm_request', 'l1', 'a1', { model: 'gpt-4.1' }),
  }, { cli: cliTree() });
});
afterAll(() => fx.cleanup());

/** Plan steps that read every row of a table (an FTS table read by rowid or MATCH is not one). */
const FULL_SCAN = /^SCAN (?!.*VIRTUAL TABLE)/;

describe('query plans of a session refresh and its lineage derivation', () => {
  for (const id of [P, C, MAIN]) {
    it(`${id === P ? 'a parent' : id === C ? 'a child' : 'a Copilot CLI session'}: every statement seeks an index, none scans a table`, () => {
      const recorded = recordStatements(fx.db, () => makeSessionRefresher(fx.db)(id), ['all', 'get', 'iterate', 'run']);
      // the refresh reads the session's events, turns, files, children and its edge
      expect(recorded.length).toBeGreaterThanOrEqual(15);
      expect(recorded.some((r) => r.sql.includes('FROM files WHERE session_id'))).toBe(true);
      for (const r of recorded) {
        for (const step of planOf(fx.db, r)) {
          expect([r.sql.replace(/\s+/g, ' '), step]).not.toEqual([expect.anything(), expect.stringMatching(FULL_SCAN)]);
          // span ids collide across sessions (FORMAT §10.2): a tool call is sought by its span id *in a session*,
          // never by span id alone (that read every session's tool calls with the id)
          if (r.sql.includes("e.type = 'tool_call'")) expect(step).not.toMatch(/USING INDEX events_\w+ \(span_id=\?\)$/);
        }
      }
    });

    it(`${id === P ? 'a parent' : id === C ? 'a child' : 'a Copilot CLI session'}: only its totals read all the session's events`, () => {
      // The lineage derivation's few lines of a session (its starts, subagent entries, tool calls by span id, the
      // ref naming a child) are sought through partial indexes; reading the session's events for them made every
      // refresh cost as much as the session is long.
      const recorded = recordStatements(fx.db, () => makeSessionRefresher(fx.db)(id), ['all', 'get', 'iterate', 'run']);
      const wholeSession = recorded.filter((r) => planOf(fx.db, r).some((step) => /events USING (COVERING )?INDEX events_session_ts \(session_num=\?\)$/.test(step)));
      expect(wholeSession.map((r) => r.sql.match(/GROUP BY type, model|ORDER BY dur DESC/)?.[0] ?? r.sql)).toEqual(['GROUP BY type, model', 'ORDER BY dur DESC']);
    });
  }

  it('seeks a tool call by its session and span id, and the ref naming a child by its span id', () => {
    const steps = (sql: string, params: Record<string, unknown>) =>
      (fx.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((p) => p.detail);
    expect(steps("SELECT tool FROM events WHERE session_num = @n AND span_id = @s AND type = 'tool_call'", { n: 1, s: 't1' })).toEqual([
      'SEARCH events USING INDEX events_tool_span (session_num=? AND span_id=?)',
    ]);
    expect(steps("SELECT name FROM events WHERE span_id = @s AND type = 'child_session_ref' ORDER BY id LIMIT 1", { s: `child-ref-${C}` })).toEqual([
      'SEARCH events USING INDEX events_child_ref (span_id=?)',
    ]);
  });
});
