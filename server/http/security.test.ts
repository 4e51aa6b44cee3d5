import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, hostnameOf, isSameOrigin, tokenCookieValue, tokenMatches } from './security';
import { rawRequest, SESSION_ID, startTestServer, type TestServer } from './test-server';

// Every case is a real HTTP request against the real app (startServer on port 0): the Host header is set by
// hand, which fetch() forbids.

const EVERY_SURFACE = ['/api/sessions', `/api/sessions/${SESSION_ID}`, '/api/health', '/api/files/1', '/api/stream', '/', '/session/x', '/assets/app.js', '/api/sql/schema'];

function expectSecurityHeaders(h: Record<string, unknown>) {
  expect(h['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('no-referrer');
  expect(h['x-frame-options']).toBe('DENY');
  for (const k of Object.keys(h)) expect(k.startsWith('access-control-'), `no CORS header (${k})`).toBe(false);
}

describe('network stance on a loopback server without a token', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.close());

  it('answers its own loopback names', async () => {
    for (const host of [`127.0.0.1:${t.port}`, `localhost:${t.port}`, `LOCALHOST:${t.port}`, `[::1]:${t.port}`, '127.0.0.1']) {
      const r = await rawRequest(t.port, { path: '/api/sessions', host });
      expect(r.status, host).toBe(200);
      expect(r.body).toContain(SESSION_ID);
    }
  });

  it('DNS rebinding: a request with Host: evil.example gets no data, on every surface (API, SSE, UI, assets)', async () => {
    for (const p of EVERY_SURFACE) {
      const r = await rawRequest(t.port, { path: p, host: 'evil.example', stopAfterMs: 1500 });
      expect(r.status, p).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe('forbidden_host');
      expect(r.body).not.toContain(SESSION_ID);
      expect(r.body).not.toContain('secret prompt');
      expect(r.headers['content-type']).toContain('application/json');
      expectSecurityHeaders(r.headers);
    }
  });

  it('refuses hosts that only look like ours, and a missing Host', async () => {
    for (const host of ['evil.example:' + t.port, '127.0.0.1.evil.example', 'localhost.evil.example', 'localhost.', '127.0.0.2', '0.0.0.0', '[::ffff:127.0.0.1]']) {
      const r = await rawRequest(t.port, { path: '/api/sessions', host });
      expect(r.status, host).toBeGreaterThanOrEqual(400);
      expect(r.body).not.toContain(SESSION_ID);
    }
    // Node's HTTP server answers an HTTP/1.1 request without Host with 400 before the app sees it.
    const none = await rawRequest(t.port, { path: '/api/sessions', host: null });
    expect(none.status).toBeGreaterThanOrEqual(400);
    expect(none.body).not.toContain(SESSION_ID);
  });

  it('refuses a foreign Origin on state-changing requests, including another port of localhost and "null"', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${t.port + 1}`, 'http://localhost', 'null', 'file://', `https://127.0.0.1.evil.example:${t.port}`, 'not a url']) {
      const r = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { Origin: origin, 'Content-Type': 'application/json' }, body: '{"sql":"SELECT 1"}' });
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body).error.code).toBe('forbidden_origin');
    }
    const same = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { Origin: `http://127.0.0.1:${t.port}`, 'Content-Type': 'application/json' }, body: '{"sql":"SELECT 1 AS one"}' });
    expect(same.status).toBe(200);
    const noOrigin = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: '{"sql":"SELECT 1 AS one"}' });
    expect(noOrigin.status, 'a non-browser client (curl, scripts) sends no Origin').toBe(200);
  });

  it('refuses cross-origin reads of the API and the SSE stream, but lets a link from another site open the UI', async () => {
    for (const p of ['/api/sessions', '/api/stream']) {
      const foreign = await rawRequest(t.port, { path: p, headers: { Origin: 'http://evil.example' }, stopAfterMs: 1500 });
      expect(foreign.status, p).toBe(403);
      const crossSite = await rawRequest(t.port, { path: p, headers: { 'Sec-Fetch-Site': 'cross-site' }, stopAfterMs: 1500 });
      expect(crossSite.status, p).toBe(403);
      const sameSiteOtherPort = await rawRequest(t.port, { path: p, headers: { 'Sec-Fetch-Site': 'same-site' }, stopAfterMs: 1500 });
      expect(sameSiteOtherPort.status, p).toBe(403);
    }
    const navigation = await rawRequest(t.port, { path: '/', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' } });
    expect(navigation.status).toBe(200);
    expect(navigation.body).toContain('<div id="root">');
  });

  it('never sends CORS headers, not even to a preflight', async () => {
    const pre = await rawRequest(t.port, {
      method: 'OPTIONS',
      path: '/api/sql',
      headers: { Origin: `http://127.0.0.1:${t.port}`, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(pre.status).toBeGreaterThanOrEqual(400);
    expectSecurityHeaders(pre.headers);
  });

  it('puts the security headers on the UI, the API, errors and the SSE stream; API answers are not cached', async () => {
    const ui = await rawRequest(t.port, { path: '/' });
    expect(ui.status).toBe(200);
    expectSecurityHeaders(ui.headers);
    const api = await rawRequest(t.port, { path: '/api/sessions' });
    expectSecurityHeaders(api.headers);
    expect(api.headers['cache-control']).toBe('no-store');
    const missing = await rawRequest(t.port, { path: '/api/nope' });
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
    const bad = await rawRequest(t.port, { path: '/api/sessions?limit=abc' });
    expect(bad.status).toBe(400);
    expectSecurityHeaders(bad.headers);
    const sse = await rawRequest(t.port, { path: '/api/stream', stopAfterMs: 800 });
    expect(sse.status).toBe(200);
    expect(sse.headers['content-type']).toContain('text/event-stream');
    expect(sse.body).toContain('event: progress');
    expectSecurityHeaders(sse.headers);
  });

  it('has a strict Content-Security-Policy: no inline or eval script, no inline styles, Trusted Types, no plugins, no framing, no base rewriting', () => {
    const d = Object.fromEntries(CONTENT_SECURITY_POLICY.split(';').map((p) => p.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['style-src']).toEqual(["'self'"]);
    expect(d['require-trusted-types-for']).toEqual(["'script'"]);
    expect(d['trusted-types']).toEqual(["'none'"]);
  });

  it('serves the static UI from its folder only: traversal gets the app shell, never a file outside it', async () => {
    // served.db sits one level above the web root of the test server
    for (const p of ['/..%2fserved.db', '/assets/..%2f..%2fserved.db', '/%2e%2e/served.db', '/..%5cserved.db', '/assets/%2e%2e%2f%2e%2e%2fserved.db']) {
      const r = await rawRequest(t.port, { path: p });
      expect(r.body.startsWith('SQLite format 3'), p).toBe(false);
      expect([200, 400, 404], p).toContain(r.status);
    }
    const asset = await rawRequest(t.port, { path: '/assets/app.js' });
    expect(asset.headers['content-type']).toContain('text/javascript');
    expectSecurityHeaders(asset.headers);
  });

  it('limits request bodies, with or without a Content-Length', async () => {
    const big = JSON.stringify({ sql: `SELECT '${'x'.repeat(300 * 1024)}'` });
    const declared = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe('too_large');
    const chunked = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: big, chunked: true });
    expect(chunked.status).toBe(413);
    // and the server still answers
    expect((await rawRequest(t.port, { path: '/api/health' })).status).toBe(200);
  });
});

describe('a server with --token', () => {
  const TOKEN = 'tok-0123456789abcdef';
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ token: TOKEN });
  });
  afterAll(async () => t.close());

  it('refuses every surface without the token (API, SSE, UI, assets)', async () => {
    for (const p of EVERY_SURFACE) {
      const r = await rawRequest(t.port, { path: p, stopAfterMs: 1500 });
      expect(r.status, p).toBe(401);
      expect(r.body).not.toContain(SESSION_ID);
      expectSecurityHeaders(r.headers);
    }
  });

  it('refuses a wrong token of the same length and a prefix of it', async () => {
    for (const wrong of [TOKEN.slice(0, -1) + 'X', TOKEN.slice(0, 8), '', TOKEN + 'x']) {
      const r = await rawRequest(t.port, { path: '/api/sessions', headers: { Authorization: `Bearer ${wrong}` } });
      expect(r.status, wrong).toBe(401);
    }
  });

  it('accepts Authorization: Bearer, and ?token= on the SSE stream (EventSource cannot set headers)', async () => {
    const r = await rawRequest(t.port, { path: '/api/sessions', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.body).toContain(SESSION_ID);
    const sse = await rawRequest(t.port, { path: `/api/stream?token=${TOKEN}`, stopAfterMs: 800 });
    expect(sse.status).toBe(200);
    expect(sse.body).toContain('event: progress');
  });

  it('opening the printed URL with ?token= sets an HttpOnly SameSite=Strict cookie for this port, for 30 days, and drops the token from the address', async () => {
    const r = await rawRequest(t.port, { path: `/session/abc?tab=1&token=${TOKEN}` });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/session/abc?tab=1');
    const cookie = String(r.headers['set-cookie']);
    expect(cookie).toBe(`chronoscope_token_${t.port}=${tokenCookieValue(TOKEN)}; Max-Age=2592000; Path=/; HttpOnly; SameSite=Strict`);
    expect(cookie).not.toContain(TOKEN);
    const pair = cookie.split(';')[0];
    const ui = await rawRequest(t.port, { path: '/session/abc', headers: { Cookie: pair } });
    expect(ui.status).toBe(200);
    const api = await rawRequest(t.port, { path: '/api/sessions', headers: { Cookie: pair } });
    expect(api.status).toBe(200);
    const forged = await rawRequest(t.port, { path: '/api/sessions', headers: { Cookie: `chronoscope_token_${t.port}=${TOKEN}` } });
    expect(forged.status, 'the cookie holds a digest, not the token').toBe(401);
  });

  it('a cookie is good for its own port only: not under the old unscoped name, not for another port of the host', async () => {
    const digest = tokenCookieValue(TOKEN);
    const unscoped = await rawRequest(t.port, { path: '/api/sessions', headers: { Cookie: `chronoscope_token=${digest}` } });
    expect(unscoped.status).toBe(401);
    // the same server reached through another port (a forwarded one): the browser keeps another cookie for it
    const otherPort = await rawRequest(t.port, { path: '/api/sessions', host: `127.0.0.1:${t.port + 1}`, headers: { Cookie: `chronoscope_token_${t.port}=${digest}` } });
    expect(otherPort.status).toBe(401);
    const noPort = await rawRequest(t.port, { path: `/?token=${TOKEN}`, host: '127.0.0.1' });
    expect(String(noPort.headers['set-cookie'])).toMatch(/^chronoscope_token_80=/);
  });

  it('two servers on one host, each with its own token, keep their cookies apart (the browser sends both to each)', async () => {
    const other = await startTestServer({ token: 'tok-another-server-0001' });
    try {
      const mine = String((await rawRequest(t.port, { path: `/?token=${TOKEN}` })).headers['set-cookie']).split(';')[0];
      const theirs = String((await rawRequest(other.port, { path: '/?token=tok-another-server-0001' })).headers['set-cookie']).split(';')[0];
      expect(mine.split('=')[0]).not.toBe(theirs.split('=')[0]);
      const jar = `${mine}; ${theirs}`;
      expect((await rawRequest(t.port, { path: '/api/sessions', headers: { Cookie: jar } })).status).toBe(200);
      expect((await rawRequest(other.port, { path: '/api/sessions', headers: { Cookie: jar } })).status).toBe(200);
      expect((await rawRequest(other.port, { path: '/api/sessions', headers: { Cookie: mine } })).status).toBe(401);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('checks the Host before the token: the right token does not open the door to a rebinding name', async () => {
    const r = await rawRequest(t.port, { path: '/api/sessions', host: 'evil.example', headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(403);
  });
});

describe('a server bound to every interface (0.0.0.0 with --token)', () => {
  const TOKEN = 'tok-fedcba9876543210';
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ host: '0.0.0.0', token: TOKEN });
  });
  afterAll(async () => t.close());

  it('accepts the Host names clients use on the network, but only with the token', async () => {
    const withToken = await rawRequest(t.port, { path: '/api/sessions', host: `192.168.1.9:${t.port}`, headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    const without = await rawRequest(t.port, { path: '/api/sessions', host: `192.168.1.9:${t.port}` });
    expect(without.status).toBe(401);
    expect(without.body).not.toContain(SESSION_ID);
  });
});

describe('helpers', () => {
  it('hostnameOf strips the port and IPv6 brackets', () => {
    expect(hostnameOf('LocalHost:7311')).toBe('localhost');
    expect(hostnameOf('[::1]:7311')).toBe('::1');
    expect(hostnameOf('[::1]')).toBe('::1');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
  });

  it('isSameOrigin compares scheme-default ports and host:port exactly', () => {
    expect(isSameOrigin('http://127.0.0.1:7311', '127.0.0.1:7311')).toBe(true);
    expect(isSameOrigin('http://localhost', 'localhost:80')).toBe(true);
    expect(isSameOrigin('http://localhost:7312', 'localhost:7311')).toBe(false);
    expect(isSameOrigin('http://[::1]:7311', '[::1]:7311')).toBe(true);
    expect(isSameOrigin('null', 'localhost:7311')).toBe(false);
    expect(isSameOrigin('chrome-extension://abc', 'abc')).toBe(false);
  });

  it('tokenMatches: equal strings only, whatever their lengths (compared as fixed-size digests)', () => {
    expect(tokenMatches('a'.repeat(16), 'a'.repeat(16))).toBe(true);
    expect(tokenMatches('a'.repeat(16), 'a'.repeat(15))).toBe(false);
    expect(tokenMatches('a'.repeat(16), undefined)).toBe(false);
    expect(tokenMatches('a'.repeat(16), 'a'.repeat(10_000))).toBe(false);
    expect(tokenCookieValue('x'.repeat(16))).toMatch(/^[0-9a-f]{64}$/);
  });
});
