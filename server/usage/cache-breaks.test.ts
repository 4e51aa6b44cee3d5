import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CacheQuery } from '../../shared/api';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { cacheBreaks } from './cache-breaks';

// A main conversation whose cache breaks once, a subagent (its own log) and a utility title request whose calls
// start with nothing cached: they must not count as breaks of the main conversation, which VS Code's own Cache
// Explorer gets wrong by comparing every call of the session in time order. Span ids restart at 1 per log.

const NOW = Date.UTC(2026, 11, 1, 12);
const P = 'cccccccc-0000-4000-8000-000000000001';
const SUB = 'cccccccc-0000-4000-8000-000000000002';
const TITLE = 'cccccccc-0000-4000-8000-000000000003';
const id = (n: number) => n.toString(16).padStart(16, '0');
const call = (sid: string, n: number, t: number, inputTokens: number, cachedTokens: number | undefined, model = 'gpt-4.1') =>
  line({ ts: NOW - 3_600_000 + t, dur: 900, sid, type: 'llm_request', name: `chat:${model}`, spanId: id(n), parentSpanId: id(1), status: 'ok', attrs: { model, inputTokens, outputTokens: 10, ...(cachedTokens === undefined ? {} : { cachedTokens }) } });

let fx: FixtureDb;
let breakId: number;
beforeAll(async () => {
  fx = await fixtureDb({
    [`${P}/main.jsonl`]: [
      line({ ts: NOW - 3_600_000, dur: 0, sid: P, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: 'go' } }),
      call(P, 2, 10, 10_000, 0), // first call: nothing to compare with
      call(P, 3, 20, 12_000, 10_000), // 83%
      call(P, 4, 40, 14_000, 700), // 5%: a break
      call(P, 5, 50, 15_000, 13_000), // 87%
      call(P, 6, 60, 800, 0), // too small to compare
      call(P, 7, 70, 16_000, undefined), // no cachedTokens: not compared
      call(P, 8, 80, 5000, 0, 'gpt-4o-mini'), // another model: its own cache, first call
    ].join(''),
    [`${P}/runSubagent-Explore-${SUB}.jsonl`]: [call(SUB, 2, 30, 9000, 0), call(SUB, 3, 35, 9500, 8000)].join(''),
    [`${P}/title-${TITLE}.jsonl`]: call(TITLE, 2, 45, 2000, 0, 'gpt-4o-mini'),
  });
  breakId = (fx.db.prepare("SELECT id FROM events WHERE type = 'llm_request' AND tokens_in = 14000").get() as { id: number }).id;
});
afterAll(() => fx.cleanup());

describe('cacheBreaks', () => {
  it('finds the one break of the main conversation, not the subagent or utility calls', () => {
    const r = cacheBreaks(fx.db, CacheQuery.parse({ window: '7d' }), NOW);
    expect(r.totalBreaks).toBe(1);
    expect(r.breaks).toEqual([
      { eventId: breakId, sessionId: P, sessionTitle: 'go', ts: NOW - 3_600_000 + 40, model: 'gpt-4.1', tokensIn: 14_000, share: 700 / 14_000, previousShare: 10_000 / 12_000, previousEventId: breakId - 1 },
    ]);
    // compared: P's calls 3, 4, 5 (gpt-4.1); the subagent's second call; nothing else
    expect(r.callsCompared).toBe(4);
    expect(r.byModel.map((m) => [m.model, m.calls, m.breaks])).toEqual([
      ['gpt-4.1', 6, 1],
      ['gpt-4o-mini', 2, 0],
    ]);
  });

  it('one session only, and an empty window', () => {
    expect(cacheBreaks(fx.db, CacheQuery.parse({ window: 'all', session: SUB }), NOW)).toMatchObject({ callsCompared: 1, totalBreaks: 0 });
    expect(cacheBreaks(fx.db, CacheQuery.parse({ window: '24h' }), NOW + 2 * 86_400_000).totalBreaks).toBe(0);
  });
});
