// Every request that reads the index reads one snapshot of it: the ingest worker commits while requests run, and an
// answer whose count and rows came from two states of the index contradicts itself (the sessions list counted 2 and
// listed 3 in CI). The request runs on a read-only connection of its own, as in the server.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionListResponse } from '../../shared/api';
import { createApp } from '../app';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordReads, snapshotsOf, tapStatements, type Read } from '../test-support/record-statements';
import { testContext } from '../test-support/test-app';

const T0 = Date.now() - 3600_000;
const SID = 'snap-s1';
const CHILD = 'snap-child';
const span = (n: number) => n.toString(16).padStart(16, '0');

function logs(): Record<string, string> {
  const ev = (o: object) => line({ sid: SID, status: 'ok', dur: 0, ...o });
  return {
    [`${SID}/main.jsonl`]:
      ev({ v: 1, ts: T0, type: 'session_start', name: 'session_start', spanId: `session-start-${SID}`, attrs: { copilotVersion: '0.44.0' } }) +
      ev({ ts: T0 + 10, type: 'user_message', name: 'user_message', spanId: span(1), attrs: { content: 'fix the retry loop' } }) +
      ev({ ts: T0 + 20, dur: 900, type: 'llm_request', name: 'chat:gpt-4.1', spanId: span(2), parentSpanId: span(1), attrs: { model: 'gpt-4.1', inputTokens: 10, outputTokens: 5, ttft: 300, copilotUsageNanoAiu: 1000 } }) +
      ev({ ts: T0 + 30, dur: 6000, type: 'tool_call', name: 'run_in_terminal', status: 'error', spanId: span(3), parentSpanId: span(1), attrs: { args: '{"command":"npm test"}', error: 'retry failed' } }) +
      ev({ ts: T0 + 50, type: 'child_session_ref', name: 'runSubagent', spanId: span(4), parentSpanId: span(1), attrs: { childSessionId: CHILD, label: 'runSubagent', childLogFile: `runSubagent-${CHILD}.jsonl` } }),
    [`${SID}/runSubagent-${CHILD}.jsonl`]: line({ sid: CHILD, ts: T0 + 60, dur: 0, status: 'ok', type: 'user_message', name: 'user_message', spanId: span(1), attrs: { content: 'subagent retry work' } }),
    [`${SID}/models.json`]: JSON.stringify([{ id: 'gpt-4.1' }]),
  };
}

/** Routes that read nothing from the index connection: the event stream, the SQL console (its own process). */
const READS_NOTHING = ['GET /api/stream', 'POST /api/sql'];

let fx: FixtureDb;
let reader: Database.Database;
let reads: Read[];
let app: ReturnType<typeof createApp>;
/** a write the writer commits right after the first statement whose SQL matches, once */
let commitAfter: { match: RegExp; write: () => void } | null = null;

beforeAll(async () => {
  fx = await fixtureDb(logs());
  reader = openReadDb(fx.dbPath);
  reads = recordReads(reader);
  tapStatements(reader, ['all', 'get', 'iterate'], (sql, _params, run) => {
    const r = run();
    const hook = commitAfter;
    if (hook?.match.test(sql)) {
      commitAfter = null;
      hook.write();
    }
    return r;
  });
  const importsDir = path.join(fx.root, 'imports');
  fs.mkdirSync(importsDir);
  app = createApp({ ...testContext(reader, fx.dbPath), importsDir });
}, 60_000);
afterAll(() => {
  reader.close();
  fx.cleanup();
});
beforeEach(() => {
  reads.length = 0;
  commitAfter = null;
});

const send = (url: string, init: RequestInit = {}) => app.request(`http://localhost${url}`, { ...init, headers: { host: 'localhost', ...init.headers } });
const id = (sql: string) => fx.db.prepare(sql).pluck().get() as number;

describe('one snapshot per request', () => {
  it('every route that reads the index runs all its statements inside one read transaction', async () => {
    const event = id("SELECT id FROM events WHERE name = 'run_in_terminal'");
    const llm = id("SELECT id FROM events WHERE type = 'llm_request'");
    const companion = id('SELECT id FROM companions LIMIT 1');
    const otlp = await (await send(`/api/sessions/${SID}/export?format=otlp`)).text();
    const requests: Record<string, [string, RequestInit?][]> = {
      'GET /api/health': [['/api/health']],
      'GET /api/ready': [['/api/ready']],
      'GET /api/sessions': [['/api/sessions'], ['/api/sessions?sort=events']],
      'GET /api/sessions/:id': [[`/api/sessions/${SID}`]],
      'GET /api/repositories': [['/api/repositories']],
      'GET /api/files/:id': [[`/api/files/${companion}`]],
      'GET /api/search': [['/api/search?q=retry']],
      'GET /api/sessions/:id/spans': [[`/api/sessions/${SID}/spans`]],
      'GET /api/sessions/:id/spans/overview': [[`/api/sessions/${SID}/spans/overview`]],
      'GET /api/sessions/:id/spans/requests': [[`/api/sessions/${SID}/spans/requests`]],
      'GET /api/sessions/:id/spans/seek': [[`/api/sessions/${SID}/spans/seek?from=-1`]],
      'GET /api/sessions/:id/spans/timeline': [[`/api/sessions/${SID}/spans/timeline?event=${llm}`]],
      'GET /api/sessions/:id/spans/breakdowns': [[`/api/sessions/${SID}/spans/breakdowns`]],
      'GET /api/events/:id': [[`/api/events/${event}`]],
      'GET /api/events': [['/api/events']],
      'GET /api/errors/groups': [['/api/errors/groups']],
      'GET /api/stats/latency': [['/api/stats/latency']],
      'GET /api/stats/histogram': [['/api/stats/histogram']],
      'GET /api/stats/timeseries': [['/api/stats/timeseries']],
      'GET /api/stats/ttft-scatter': [['/api/stats/ttft-scatter']],
      'GET /api/triage/counts': [['/api/triage/counts']],
      'GET /api/usage': [['/api/usage']],
      'GET /api/usage/cache': [['/api/usage/cache']],
      'GET /api/customizations': [['/api/customizations']],
      'GET /api/lineage': [['/api/lineage']],
      'GET /api/lineage/:id': [[`/api/lineage/${SID}`]],
      'GET /api/sessions/:id/export': [[`/api/sessions/${SID}/export?format=md`], [`/api/sessions/${SID}/export?format=otlp`]],
      'GET /api/sql/schema': [['/api/sql/schema']],
      'POST /api/import': [['/api/import', { method: 'POST', body: otlp, headers: { 'content-type': 'application/json' } }]],
    };
    const routes = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
    expect([...routes].sort()).toEqual([...Object.keys(requests), ...READS_NOTHING].sort());
    for (const [route, list] of Object.entries(requests)) {
      for (const [url, init] of list) {
        reads.length = 0;
        const res = await send(url, init);
        expect([url, res.status]).toEqual([url, 200]);
        await res.arrayBuffer();
        expect({ route, url, ...snapshotsOf(reads) }).toEqual({ route, url, begun: 1, outside: [] });
      }
    }
  });

  it('the sessions list counts the rows it lists while the writer commits a session between its statements', async () => {
    const before = (await (await send('/api/sessions')).json()) as SessionListResponse;
    expect([before.total, before.sessions.map((s) => s.id)]).toEqual([1, [SID]]); // the subagent is listed under its parent
    // between the list's count and its page
    commitAfter = {
      match: /SELECT count\(\*\) n FROM sessions/,
      write: () => fx.db.prepare("INSERT INTO sessions (id, num, event_count, first_ts, last_ts) VALUES ('snap-late', 1000, 1, ?, ?)").run(T0 + 9_000_000, T0 + 9_000_000),
    };
    const during = (await (await send('/api/sessions?limit=49')).json()) as SessionListResponse; // not the cached answer
    expect(commitAfter).toBe(null); // the writer did commit in the middle of the request
    expect([during.total, during.sessions.map((s) => s.id)]).toEqual([1, [SID]]);
    const after = (await (await send('/api/sessions')).json()) as SessionListResponse;
    expect([after.total, after.sessions.map((s) => s.id)]).toEqual([2, ['snap-late', SID]]);
  });
});
