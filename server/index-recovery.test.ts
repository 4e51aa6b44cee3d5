// The real server on an index with a damaged page in its middle: whichever reader meets it first (a request,
// the ingest worker, the background quick_check), the index is moved aside, rebuilt from the logs, and health
// says so, naming the session whose logs are gone; a restart still says so and rebuilds nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Health, SearchResponse, SessionListResponse } from '../shared/api';
import { startServer, type RunningServer } from './serve';
import { damageMiddlePage } from './test-support/damage-page';
import { fixtureDb, line, type FixtureDb } from './test-support/fixture-db';
import { until } from './test-support/until';

let fx: FixtureDb | null = null;
let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  fx?.cleanup();
  fx = null;
});

const pad = 'p'.repeat(300);
const ev = (sid: string, i: number) =>
  line({ ts: 1775000000000 + i, dur: i % 9, sid, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { args: '{}', result: pad + i } });
const ask = (sid: string, text: string) => line({ ts: 1774999999000, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: text } });
const session = (sid: string, n: number, title: string) => ask(sid, title) + Array.from({ length: n }, (_, i) => ev(sid, i + 1)).join('');

const start = (f: FixtureDb) =>
  startServer({ dbPath: f.dbPath, roots: [path.join(f.root, 'Code')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });

describe('a damaged page in the middle of the index, on the running server', () => {
  it('is rebuilt from the logs; health names the lost session; exact counts; a restart keeps the message', async () => {
    fx = await fixtureDb({ 'keep1/main.jsonl': session('keep1', 400, 'keep one'), 'keep2/main.jsonl': session('keep2', 300, 'keep two'), 'gone/main.jsonl': session('gone', 200, 'the lost one') });
    fs.rmSync(path.join(fx.logsDir(), 'gone'), { recursive: true });
    await fx.reindex();
    fx.db.close();
    damageMiddlePage(fx.dbPath, 'events');
    server = await start(fx);
    const s = server;
    const get = async <T>(p: string) => {
      const res = await fetch(s.url + p);
      return { status: res.status, body: (await res.json()) as T };
    };
    // Whatever reads the page first: this request, or the check thread after the backfill. Never a 500.
    const first = await get<unknown>('/api/events?sort=dur');
    expect([200, 503]).toContain(first.status);
    // The read worker opens its connection now, on the damaged file; after the rebuild it answers from the new one.
    await get<unknown>('/api/search?q=' + encodeURIComponent('"keep one"'));
    await until(() => get<unknown>('/api/ready'), (r) => r.status === 200 && s.recovery.count === 1);
    const health = (await get<Health>('/api/health')).body;
    const aside = fs.readdirSync(fx.root).filter((n) => n.startsWith('index.db.corrupt-'));
    expect(aside.filter((n) => !n.endsWith('-wal') && !n.endsWith('-shm'))).toHaveLength(1);
    const problem = health.problems.find((p) => p.kind === 'corrupt');
    expect(problem?.reason).toMatch(
      new RegExp(`^The index at ${fx.dbPath} was damaged \\(.+\\)\\. It was moved to ${path.join(fx.root, aside[0])} and rebuilt from the logs\\. 1 session whose logs are gone could not be recovered: gone \\(the lost one\\)\\.$`),
    );
    expect(health.events).toBe(401 + 301);
    const list = (await get<SessionListResponse>('/api/sessions')).body;
    expect(list.sessions.map((x) => [x.id, x.eventCount]).sort()).toEqual([
      ['keep1', 401],
      ['keep2', 301],
    ]);
    expect((await get<{ events: unknown[] }>('/api/events?sort=dur')).status).toBe(200);
    const sessionsFound = async (q: string) => {
      const r = await get<SearchResponse>('/api/search?q=' + encodeURIComponent(q));
      return [r.status, r.body.groups?.flatMap((g) => g.sessions.map((x) => x.id))];
    };
    expect(await sessionsFound('"the lost one"')).toEqual([200, []]);
    expect(await sessionsFound('"keep one"')).toEqual([200, ['keep1']]);
    await s.close();
    server = null;

    server = await start(fx);
    await server.backfilled;
    const again = (await (await fetch(server.url + '/api/health')).json()) as Health;
    expect(again.events).toBe(702);
    expect(again.problems.filter((p) => p.kind === 'corrupt').map((p) => p.reason)).toEqual([problem?.reason]);
    await new Promise((r) => setTimeout(r, 500)); // the background check of a sound index finds nothing
    expect(server.recovery.count).toBe(0);
  }, 60_000);
});

describe('a damaged page in the middle of the search file, on the running server', () => {
  it('moves the search file aside alone and refills it from the archive: the archive, and the session whose logs are gone, are kept', async () => {
    const wordy = (sid: string, n: number, title: string) =>
      ask(sid, title) +
      Array.from({ length: n }, (_, i) =>
        line({ ts: 1775000000000 + i, dur: 1, sid, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { args: '{}', result: `${sid} word${i} ` + Array.from({ length: 60 }, (_, k) => `t${(i * 61 + k) % 9973}x`).join(' ') } }),
      ).join('');
    fx = await fixtureDb({ 'keep1/main.jsonl': wordy('keep1', 400, 'keep one'), 'gone/main.jsonl': wordy('gone', 300, 'the lost one') });
    fs.rmSync(path.join(fx.logsDir(), 'gone'), { recursive: true });
    await fx.reindex();
    fx.db.close();
    const searchFile = fx.dbPath.replace(/\.db$/, '.search.db');
    expect(fs.existsSync(searchFile)).toBe(true);
    damageMiddlePage(searchFile, 'event_text_data');
    server = await start(fx);
    const s = server;
    const get = async <T>(p: string) => {
      const res = await fetch(s.url + p);
      return { status: res.status, body: (await res.json()) as T };
    };
    const sessionsFound = async (q: string) => {
      const r = await get<SearchResponse>('/api/search?q=' + encodeURIComponent(q));
      return [r.status, r.body.groups?.flatMap((g) => g.sessions.map((x) => x.id)).sort()];
    };
    // a search over every trigram page meets the damage: a 503 that says so, never a 500
    const first = await get<unknown>('/api/search?q=' + encodeURIComponent('t1x'));
    expect([200, 503]).toContain(first.status);
    await until(() => get<unknown>('/api/ready'), (r) => r.status === 200 && s.recovery.count === 1);
    // the archive was not moved: only the search file
    const aside = fs.readdirSync(fx.root).filter((n) => n.includes('.corrupt-') && !n.endsWith('-wal') && !n.endsWith('-shm'));
    expect(aside.map((n) => n.replace(/corrupt-.*/, 'corrupt-'))).toEqual(['index.search.db.corrupt-']);
    const health = await until(() => get<Health>('/api/health'), (h) => h.body.search?.eventsBehind === 0);
    expect(health.body.problems.find((p) => p.kind === 'corrupt')?.reason).toMatch(
      new RegExp(`^The search index at ${searchFile} was damaged \\(.+\\)\\. It was moved to ${path.join(fx.root, aside[0])} and is being filled again from the archive; the archive itself was sound and kept\\.$`),
    );
    expect(health.body.events).toBe(401 + 301);
    // the session whose logs are gone is still in the archive, and found again through the refilled search file
    expect((await get<SessionListResponse>('/api/sessions')).body.sessions.map((x) => [x.id, x.eventCount]).sort()).toEqual([
      ['gone', 301],
      ['keep1', 401],
    ]);
    expect(await sessionsFound('"the lost one"')).toEqual([200, ['gone']]);
    expect(await sessionsFound('t1x')).toEqual([200, ['gone', 'keep1']]);
    expect(await sessionsFound('"gone word299 "')).toEqual([200, ['gone']]);
  }, 60_000);
});
