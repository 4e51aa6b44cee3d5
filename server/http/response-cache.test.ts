import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openReadDb } from '../db/open';
import { fixtureDb, line } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { encodeJson, jsonBody } from './json-bytes';
import { responseCache } from './response-cache';

// A burst of identical requests is computed once, and a cached answer is never older than the last commit:
// the ingest worker commits on its own connection, the server reads on another.
let dir: string;
let writer: Database.Database;
let reader: Database.Database;
let computed: number;
let now: number;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-rc-'));
  const file = path.join(dir, 'x.db');
  writer = new Database(file);
  writer.pragma('journal_mode = WAL');
  writer.exec('CREATE TABLE events (id INTEGER PRIMARY KEY, body TEXT)');
  writer.prepare('INSERT INTO events (body) VALUES (?)').run('first');
  reader = openReadDb(file);
  computed = 0;
  now = 1_800_000_000_000;
});
afterEach(() => {
  reader.close();
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An app whose /events answers after `delayMs` with what the reading connection sees. */
function app(o: { maxAgeMs?: number; maxBytes?: number; delayMs?: number } = {}) {
  const a = new Hono();
  a.use('*', responseCache(() => reader, { maxAgeMs: o.maxAgeMs ?? 3_600_000, maxBytes: o.maxBytes, clock: () => now }));
  a.get('/events', async (c) => {
    computed++;
    await new Promise((r) => setTimeout(r, o.delayMs ?? 0));
    const bodies = reader.prepare('SELECT body FROM events ORDER BY id').pluck().all();
    return c.json({ bodies, pad: c.req.query('pad') ?? '' }, 200);
  });
  a.get('/bad', (c) => {
    computed++;
    return c.json({ error: 'no' }, 400);
  });
  return a;
}

const body = async (r: Response | Promise<Response>) => (await (await r).json()) as { bodies: string[] };

describe('responseCache: one computation per request and database state', () => {
  it('answers 50 identical requests in flight from one computation, each with the same body', async () => {
    const a = app({ delayMs: 20 });
    const res = await Promise.all(Array.from({ length: 50 }, () => a.request('/events')));
    expect(computed).toBe(1);
    expect(res.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(res.map((r) => r.headers.get('X-Chronoscope-Cache')).sort()).toEqual(['miss', ...Array(49).fill('shared')]);
    expect(new Set(await Promise.all(res.map((r) => r.text())))).toEqual(new Set(['{"bodies":["first"],"pad":""}']));
  });

  it('reuses an answer while nothing was committed, and sees a commit by another connection at once', async () => {
    const a = app();
    expect((await body(a.request('/events'))).bodies).toEqual(['first']);
    const again = await a.request('/events');
    expect([again.headers.get('X-Chronoscope-Cache'), computed]).toEqual(['hit', 1]);
    writer.prepare('INSERT INTO events (body) VALUES (?)').run('second');
    const after = await a.request('/events');
    expect(after.headers.get('X-Chronoscope-Cache')).toBe('miss');
    expect((await body(after)).bodies).toEqual(['first', 'second']);
    expect(computed).toBe(2);
  });

  it("reuses an answer as a Response @hono/node-server writes straight to the socket (its 'lightweight' form)", async () => {
    // The server's adaptor replaces the global Response with its own, which writes a string or Uint8Array body with
    // plain headers without building a fetch Response; an ArrayBuffer body, or headers read back to add one, built
    // one with a ReadableStream for every reused answer (0.1 ms each, 200 a burst, on the loop that answers health).
    getRequestListener(() => new Response(''));
    const lightweight = (r: Response) => Object.getOwnPropertySymbols(r).some((k) => k.description === 'cache');
    const a = app();
    await a.request('/events');
    const again = await a.request('/events');
    expect(lightweight(again)).toBe(true);
    expect([again.headers.get('X-Chronoscope-Cache'), again.headers.get('content-type'), await again.text()]).toEqual(['hit', 'application/json', '{"bodies":["first"],"pad":""}']);
  });

  it("keeps an answer sent as encoded JSON (a read worker's) from its bytes, without reading the Response back", async () => {
    const a = new Hono();
    a.use('*', responseCache(() => reader, { clock: () => now }));
    let read = 0;
    a.get('/encoded', (c) => {
      const res = jsonBody(c, encodeJson({ bodies: ['first'], note: 'héllo' }));
      // reading the answer back would build a fetch Response and copy the body: counted, and the test wants none
      const arrayBuffer = res.arrayBuffer.bind(res);
      Object.defineProperty(res, 'arrayBuffer', { value: () => (read++, arrayBuffer()) });
      return res;
    });
    const first = await a.request('/encoded');
    const again = await a.request('/encoded');
    expect([first.headers.get('Content-Type'), again.headers.get('X-Chronoscope-Cache'), await again.text(), read]).toEqual([
      'application/json',
      'hit',
      '{"bodies":["first"],"note":"héllo"}',
      0,
    ]);
  });

  it('computes afresh for a request that says Cache-Control: no-cache (a hard reload, the bench), and keeps that answer', async () => {
    const a = app();
    await a.request('/events');
    const fresh = await Promise.all([0, 1].map(() => a.request('/events', { headers: { 'Cache-Control': 'no-cache' } })));
    // neither reused the kept answer nor the other's computation
    expect(fresh.map((r) => r.headers.get('X-Chronoscope-Cache'))).toEqual(['miss', 'miss']);
    expect(computed).toBe(3);
    expect((await body(fresh[1])).bodies).toEqual(['first']);
    // what it computed is kept for the requests that allow it; max-age=0 and Pragma: no-cache ask the same
    const reused = await a.request('/events');
    expect([reused.headers.get('X-Chronoscope-Cache'), computed]).toEqual(['hit', 3]);
    for (const headers of [{ 'Cache-Control': 'max-age=0' }, { Pragma: 'no-cache' }, { 'Cache-Control': 'private, No-Cache' }] as Record<string, string>[]) {
      expect((await a.request('/events', { headers })).headers.get('X-Chronoscope-Cache')).toBe('miss');
    }
    expect(computed).toBe(6);
  });

  it('keeps an answer at most maxAgeMs, since answers also depend on the clock', async () => {
    const a = app({ maxAgeMs: 1000 });
    await a.request('/events');
    now += 1000;
    expect((await a.request('/events')).headers.get('X-Chronoscope-Cache')).toBe('hit');
    now += 1;
    expect((await a.request('/events')).headers.get('X-Chronoscope-Cache')).toBe('miss');
    expect(computed).toBe(2);
  });

  it('keys by the whole query string, and keeps no refusal', async () => {
    const a = app();
    await a.request('/events?pad=a');
    await a.request('/events?pad=b');
    await a.request('/events?pad=a');
    expect(computed).toBe(2);
    expect((await a.request('/bad')).status).toBe(400);
    expect((await a.request('/bad')).status).toBe(400);
    expect(computed).toBe(4);
  });

  it('drops the least recently used answer past its budget of bytes', async () => {
    // each body is 44 bytes: 18 fit in 800, the 19th pushes out the one used longest ago
    const a = app({ maxBytes: 800 });
    const pad = (p: string) => `/events?pad=${p.repeat(15)}`;
    for (const p of 'abcdefghijklmnopqrs') await a.request(pad(p));
    expect(computed).toBe(19);
    await a.request(pad('b'));
    expect(computed).toBe(19);
    await a.request(pad('a'));
    expect(computed).toBe(20);
  });
});

describe('responseCache in the app', () => {
  it('a search answered, a new event committed, the same search finds it', async () => {
    const NOW = Date.now();
    const ev = (sid: string, n: number, content: string) =>
      line({ ts: NOW - 60_000 + n, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `000000000000000${n}`, status: 'ok', attrs: { content } });
    const fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 1, 'the flaky uploader retries') });
    try {
      const api = createApp(testContext(fx.db, fx.dbPath));
      const search = async () => ((await (await api.request('http://localhost/api/search?q=uploader', { headers: { host: 'localhost' } })).json()) as { totals: { events: number } }).totals.events;
      expect(await search()).toBe(1);
      fs.appendFileSync(path.join(fx.logsDir(), 's1/main.jsonl'), ev('s1', 2, 'the uploader again'));
      await fx.reindex();
      expect(await search()).toBe(2);
    } finally {
      fx.cleanup();
    }
  });
});
