import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, SESSION_ID, startTestServer, type TestServer } from './test-server';

// Companion files are served by index id only (hardening issue, item 3): the right content types, a
// Content-Disposition, and no path from the request ever reaching the filesystem.
let t: TestServer;
let ids: { id: number; name: string; kind: string }[];
beforeAll(async () => {
  t = await startTestServer();
  ids = t.server.ctx.db.prepare('SELECT id, name, kind FROM companions ORDER BY id').all() as typeof ids;
});
afterAll(async () => t.close());

describe('GET /api/files/:id', () => {
  it('serves a system prompt as text/plain and models.json as application/json, with nosniff and a Content-Disposition', async () => {
    expect(ids.map((x) => x.kind).sort()).toEqual(['models', 'system_prompt']);
    for (const f of ids) {
      const r = await rawRequest(t.port, { path: `/api/files/${f.id}` });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(f.kind === 'models' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
      expect(r.headers['content-disposition']).toMatch(/^(inline|attachment); filename="[\w.-]+"$/);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    }
    const prompt = ids.find((x) => x.kind === 'system_prompt')!;
    const r = await rawRequest(t.port, { path: `/api/files/${prompt.id}` });
    expect(r.body).toContain('<script>window.__pwned=1</script>'); // as text: never text/html
    expect(r.headers['content-type']).not.toContain('html');
  });

  it('never reads a path from the request: traversal, absolute and encoded paths are refused or unknown ids', async () => {
    const attempts = [
      '/api/files/..%2F..%2F..%2Fetc%2Fpasswd',
      '/api/files/%2Fetc%2Fpasswd',
      `/api/files/${encodeURIComponent(`${SESSION_ID}/main.jsonl`)}`,
      '/api/files/..',
      '/api/files/1%00.json',
      '/api/files/-1',
      '/api/files/0',
      '/api/files/1.5',
      '/api/files/99999999999999999999',
      '/api/files/1e3',
      '/api/files/%20',
      '/api/files/..%5C..%5Cwindows%5Cwin.ini',
    ];
    for (const p of attempts) {
      const r = await rawRequest(t.port, { path: p });
      expect([400, 404], p).toContain(r.status);
      expect(JSON.parse(r.body).error.code, p).toMatch(/bad_request|not_found/);
      expect(r.body).not.toContain('root:');
      expect(r.body).not.toContain('session_start');
    }
    const main = await rawRequest(t.port, { path: `/api/files/../../sessions` });
    expect(main.body).not.toContain('session_start');
  });

  it('answers an unknown id with 404 in the one error body', async () => {
    const r = await rawRequest(t.port, { path: '/api/files/424242' });
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toEqual({ error: { code: 'not_found', message: 'companion file 424242 was not found' } });
  });
});
