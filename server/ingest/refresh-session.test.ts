import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordStatements } from '../test-support/record-statements';
import { makeSessionRefresher } from './refresh-session';

// The facts refresh-session.ts sums from a session's events, with what makes a sum go wrong: a repeat in the same
// file (dup 2, left out), model calls of two models and one without any, credits on some calls only (unknown is
// never 0), an event with no duration, an error, a type that is an Object.prototype key.
const S = 'aaaaaaaa-1111-4111-8111-111111111111';
const T0 = 1_700_000_000_000;
const ev = (type: string, spanId: string, at: number, dur: number, attrs: object, status = 'ok') =>
  line({ ts: T0 + at, dur, sid: S, type, name: type, spanId, status, attrs });
const call = (spanId: string, at: number, dur: number, attrs: object) => ev('llm_request', spanId, at, dur, attrs);

let fx: FixtureDb;
beforeAll(async () => {
  const asked = ev('user_message', '0000000000000002', 100, 0, { content: 'fix the retry loop' });
  fx = await fixtureDb({
    [`${S}/main.jsonl`]:
      ev('session_start', '0000000000000001', 0, 0, { copilotVersion: '0.30.0' }) +
      asked +
      asked +
      call('0000000000000003', 300, 40, { model: 'gpt-5', inputTokens: 10, outputTokens: 2, copilotUsageNanoAiu: 7 }) +
      call('0000000000000004', 500, 60, { model: 'claude-sonnet-4', inputTokens: 20, outputTokens: 3, cachedTokens: 5 }) +
      call('0000000000000005', 700, 30, { inputTokens: 1, outputTokens: 1, copilotUsageNanoAiu: 11 }) +
      ev('tool_call', '0000000000000006', 800, 900, { args: '{}' }, 'error') +
      ev('__proto__', '0000000000000007', 2000, 0, {}),
  });
});
afterAll(() => fx.cleanup());

it('sums a session\'s events once each: counts by type, models, tokens, model time, credits, errors, time span', () => {
  const row = fx.db
    .prepare(
      `SELECT event_count, error_count, first_ts, last_ts, tokens_in, tokens_out, model_ms, credits_nano, credited_calls, counts, models
       FROM sessions WHERE id = ?`,
    )
    .get(S) as Record<string, unknown>;
  expect(row).toEqual({
    event_count: 7,
    error_count: 1,
    first_ts: T0,
    last_ts: T0 + 2000,
    tokens_in: 31,
    tokens_out: 6,
    model_ms: 130,
    credits_nano: 18,
    credited_calls: 2,
    counts: '{"__proto__":1,"llm_request":3,"session_start":1,"tool_call":1,"user_message":1}',
    models: JSON.stringify(['claude-sonnet-4', 'gpt-5']),
  });
  expect(JSON.parse(row.counts as string)).toHaveProperty(['__proto__'], 1);
});

it('keeps one session_text row per session: written once, rewritten only when the title changes', () => {
  const num = (fx.db.prepare('SELECT num FROM sessions WHERE id = ?').get(S) as { num: number }).num;
  const found = (text: string) =>
    (fx.db.prepare('SELECT rowid FROM session_text WHERE session_text MATCH ?').all(`"${text}"`) as { rowid: number }[]).map((r) => r.rowid);
  const sessionTextWrites = () =>
    recordStatements(fx.db, () => makeSessionRefresher(fx.db)(S), ['run']).filter((r) => /session_text/.test(r.sql)).map((r) => r.sql.split(' ')[0]);
  expect(found('fix the retry loop')).toEqual([num]);
  // Nothing changed: no write (a delete from the contentless table flushed its pending terms into a segment each time).
  expect(sessionTextWrites()).toEqual([]);
  fx.db.prepare("UPDATE turns SET user_message = 'rename the backoff helper' WHERE session_id = ?").run(S);
  expect(sessionTextWrites()).toEqual(['DELETE', 'INSERT']);
  expect(found('fix the retry loop')).toEqual([]);
  expect(found('rename the backoff helper')).toEqual([num]);
  expect(fx.db.prepare('SELECT meta_text FROM sessions WHERE id = ?').get(S)).toEqual({ meta_text: `${S} rename the backoff helper` });
});
