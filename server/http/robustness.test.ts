// Malformed requests get a clear 4xx in the one error body, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestServer, type TestServer } from './test-server';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
}, 60_000);
afterAll(async () => {
  await t.close();
});

describe('malformed requests', () => {
  it('malformed JSON sent to a route that validates a JSON body is a 400 naming the problem', async () => {
    const r = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: '{"sql": ' });
    expect(r.status).toBe(400);
    expect((JSON.parse(r.body) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it('a malformed %-escape in a UI path serves the app shell, not a 500', async () => {
    const r = await rawRequest(t.port, { path: '/session/%E0%A4%A' });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<div id="root"></div>');
  });
});
