import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, SearchResponse } from '../../shared/api';
import { createApp } from '../app';
import { testContext } from '../test-support/test-app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

// GET /api/search end to end through the app: the contract on success, the one error body on every refusal.

const S = 'dddddddd-0000-4000-8000-000000000001';
let fx: FixtureDb;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  fx = await fixtureDb({
    [`${S}/main.jsonl`]: line({ ts: Date.now() - 1000, dur: 0, sid: S, type: 'user_message', name: 'user_message', spanId: 'R', status: 'ok', attrs: { content: 'fix wsReconnectLoop' } }),
  });
  const ctx = testContext(fx.db, fx.dbPath);
  app = createApp(ctx);
});
afterAll(() => fx.cleanup());

async function get(url: string) {
  const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('GET /api/search', () => {
  it('200 with sessions grouped by repository', async () => {
    const { status, body } = await get(`/api/search?q=${encodeURIComponent('Reconnect')}&window=7d&sort=recent`);
    expect(status).toBe(200);
    const r = SearchResponse.parse(body);
    expect(r.groups[0].sessions[0]).toMatchObject({ id: S, repository: 'ws1', title: 'fix wsReconnectLoop' });
    expect(r.query).toMatchObject({ window: '7d', sort: 'recent', terms: [{ text: 'Reconnect', exclude: false, phrase: false, index: 'trigram' }] });
  });

  it('every refusal is a 400 with the one error body and a message that says what to fix', async () => {
    for (const [url, code, message] of [
      ['/api/search?q=io', 'bad_query', /"io" is too short/],
      ['/api/search?q=', 'bad_query', /type something to search for/],
      ['/api/search?q=retry%20type:nope', 'bad_query', /type:nope is not a type: use one of/],
      ['/api/search?q=retry&window=1y', 'bad_request', /invalid window/],
      ['/api/search?q=retry&limit=0', 'bad_request', /invalid limit/],
      ['/api/search?q=retry&cursor=zzz', 'bad_cursor', /start again without it/],
      ['/api/search', 'bad_request', /invalid q/],
    ] as const) {
      const { status, body } = await get(url);
      expect([url, status]).toEqual([url, 400]);
      const e = ErrorBody.parse(body);
      expect([url, e.error.code]).toEqual([url, code]);
      expect(e.error.message).toMatch(message);
    }
  });
});
