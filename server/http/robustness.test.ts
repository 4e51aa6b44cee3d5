// Malformed requests get a clear 4xx in the one error body, never a 500.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CacheQuery, ChartQuery, CustomizationsQuery, ErrorGroupsQuery, EventDetail, EventDetailQuery, EventListQuery, ExportQuery, LatencyStatsQuery, LineageForestQuery, LineageTraceQuery, RepositoryListQuery, ScatterQuery, SearchQuery, SessionListQuery, SpanListQuery, SpanSeekQuery, RequestTimelineQuery, SqlRequest, TimeseriesQuery, TriageCountsQuery, UsageQuery } from '../../shared/api';
import { MAX_JSON_DEPTH, tooDeepMarker } from '../../shared/json-depth';
import { createApp } from '../app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { hashSeed, hostileJson, PROTOTYPE_NAMES, hostileString, percentEncoded, queryLanguageText, Rng, urlEncoded } from '../test-support/hostile-values';
import { testContext } from '../test-support/test-app';
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

  it('a bad query parameter is named with the value given and what it takes', async () => {
    const message = async (p: string) => (JSON.parse((await rawRequest(t.port, { path: p })).body) as { error: { message: string } }).error.message;
    expect(await message('/api/events?min=abc')).toBe('invalid min: "abc" is not a number');
    expect(await message('/api/search?q=retry&window=9q')).toBe('invalid window: "9q" is not one of 24h, 7d, 30d, 90d, all');
    expect(await message('/api/sessions?limit=0')).toBe('invalid limit: 0 is too small (at least 1)');
  });

  it('a malformed %-escape in a UI path serves the app shell, not a 500', async () => {
    const r = await rawRequest(t.port, { path: '/session/%E0%A4%A' });
    expect(r.status).toBe(200);
    expect(r.body).toContain('<div id="root"></div>');
  });
});

// ── every route parameter of every route, fuzzed in process ──────────────────────────────────────────────

const FUZZ_SESSION = 'fz-s1';
const FUZZ_CHILD = 'fz-child';
const FUZZ_T0 = Date.now() - 3600_000;
/** An event's attrs nested this deep: JSON.stringify (and any recursive walk) overflows the stack well before. */
const DEEP_LEVELS = 5_000;
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '"leaf"' + '}'.repeat(levels);

function fuzzLogs(): Record<string, string> {
  const ev = (o: object) => line({ sid: FUZZ_SESSION, status: 'ok', dur: 0, ...o });
  // The writer cuts a string attr at 5,000 characters; this one is an object, as `requestOptions` may be.
  const deep = ev({ ts: FUZZ_T0 + 40, dur: 7, type: 'tool_call', name: 'deep_tool', spanId: '0000000000000005', parentSpanId: '0000000000000001', attrs: { args: 'DEEP' } }).replace('"DEEP"', deepObject(DEEP_LEVELS));
  return {
    [`${FUZZ_SESSION}/main.jsonl`]:
      ev({ v: 1, ts: FUZZ_T0, type: 'session_start', name: 'session_start', spanId: `session-start-${FUZZ_SESSION}`, attrs: { copilotVersion: '0.44.0' } }) +
      ev({ ts: FUZZ_T0 + 10, type: 'user_message', name: 'user_message', spanId: '0000000000000001', attrs: { content: 'fix the retry loop in wsReconnect' } }) +
      ev({ ts: FUZZ_T0 + 20, dur: 900, type: 'llm_request', name: 'chat:gpt-4.1', spanId: '0000000000000002', parentSpanId: '0000000000000001', attrs: { model: 'gpt-4.1', inputTokens: 10, outputTokens: 5, ttft: 300 } }) +
      ev({ ts: FUZZ_T0 + 30, dur: 6000, type: 'tool_call', name: 'run_in_terminal', status: 'error', spanId: '0000000000000003', parentSpanId: '0000000000000001', attrs: { args: '{"command":"npm test"}', error: 'ENOENT: no such file, retry failed' } }) +
      deep +
      ev({ ts: FUZZ_T0 + 50, type: 'child_session_ref', name: 'runSubagent', spanId: '0000000000000006', parentSpanId: '0000000000000001', attrs: { childSessionId: FUZZ_CHILD, label: 'runSubagent', childLogFile: `runSubagent-${FUZZ_CHILD}.jsonl` } }) +
      'garbage line {\n',
    [`${FUZZ_SESSION}/runSubagent-${FUZZ_CHILD}.jsonl`]:
      line({ sid: FUZZ_CHILD, ts: FUZZ_T0 + 60, dur: 0, status: 'ok', type: 'user_message', name: 'user_message', spanId: '0000000000000001', attrs: { content: 'subagent retry work' } }),
    [`${FUZZ_SESSION}/models.json`]: JSON.stringify([{ id: 'gpt-4.1' }]),
  };
}

/** What each route reads from the request besides its path parameters. Every route of the app must be here. */
const ROUTE_INPUTS: Record<string, { query?: z.ZodObject; json?: z.ZodObject; stream?: true }> = {
  'GET /api/health': {},
  'GET /api/ready': {},
  'GET /api/sessions': { query: SessionListQuery },
  'GET /api/sessions/:id': {},
  'GET /api/repositories': { query: RepositoryListQuery },
  'GET /api/files/:id': {},
  'GET /api/stream': { stream: true },
  'GET /api/search': { query: SearchQuery },
  'GET /api/sessions/:id/spans': { query: SpanListQuery },
  'GET /api/sessions/:id/spans/overview': {},
  'GET /api/sessions/:id/spans/requests': {},
  'GET /api/sessions/:id/spans/seek': { query: SpanSeekQuery },
  'GET /api/sessions/:id/spans/timeline': { query: RequestTimelineQuery },
  'GET /api/sessions/:id/spans/breakdowns': {},
  'GET /api/events/:id': { query: EventDetailQuery },
  'GET /api/events': { query: EventListQuery },
  'GET /api/errors/groups': { query: ErrorGroupsQuery },
  'GET /api/stats/latency': { query: LatencyStatsQuery },
  'GET /api/stats/histogram': { query: ChartQuery },
  'GET /api/stats/timeseries': { query: TimeseriesQuery },
  'GET /api/stats/ttft-scatter': { query: ScatterQuery },
  'GET /api/triage/counts': { query: TriageCountsQuery },
  'GET /api/usage': { query: UsageQuery },
  'GET /api/usage/cache': { query: CacheQuery },
  'GET /api/customizations': { query: CustomizationsQuery },
  'GET /api/lineage': { query: LineageForestQuery },
  'GET /api/lineage/:id': { query: LineageTraceQuery },
  'GET /api/sessions/:id/export': { query: ExportQuery },
  'POST /api/import': {},
  'GET /api/sql/schema': {},
  'POST /api/sql': { json: SqlRequest },
  'GET /*': {},
};

/** The one error body and nothing else (ErrorBody itself lets unknown keys through). */
const StrictErrorBody = z.strictObject({ error: z.strictObject({ code: z.string().min(1), message: z.string().min(1), details: z.unknown().optional() }) });

type JsonProperty = { type?: string; enum?: string[]; minimum?: number; maximum?: number; default?: unknown };

/** A value the parameter accepts (so that one hostile parameter among valid ones reaches the code behind it). */
function plausible(rng: Rng, name: string, p: JsonProperty, ids: { events: number[] }): string {
  if (p.enum) return rng.pick(p.enum);
  if (p.type === 'integer' || p.type === 'number') {
    if (name === 'reveal') return String(rng.pick(ids.events));
    return String(Math.max(p.minimum ?? 0, Math.min(p.maximum ?? 100, rng.int(-1, 60))));
  }
  if (name === 'q') return rng.chance(0.5) ? queryLanguageText(rng) : rng.pick(['retry', 'wsReconnect', '"retry loop"', 'retry type:tool', 'status:error retry']);
  if (name === 'toggled') return ids.events.slice(0, rng.int(0, ids.events.length)).join(',');
  if (name === 'session' || name === 'group') return rng.pick([FUZZ_SESSION, FUZZ_CHILD, 'ws1']);
  if (name === 'model') return 'gpt-4.1';
  if (name === 'tool' || name === 'type') return rng.pick(['run_in_terminal', 'tool_call', 'llm_request', 'tool_call,llm_request']);
  return rng.pick(['retry', 'ws1', 'gpt-4.1', '']);
}

function pathValue(rng: Rng, ids: { events: number[] }): string {
  return rng.chance(0.4) ? rng.pick([FUZZ_SESSION, FUZZ_CHILD, ...ids.events.map(String), '1']) : urlEncoded(rng, hostileString(rng));
}

describe('fuzz: every parameter of every route answers 2xx or a 4xx with the one error body, never a 5xx', () => {
  let fx: FixtureDb;
  let app: ReturnType<typeof createApp>;
  let eventIds: number[];
  beforeAll(async () => {
    fx = await fixtureDb(fuzzLogs());
    const webRoot = path.join(fx.root, 'web');
    fs.mkdirSync(webRoot, { recursive: true });
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    app = createApp({ ...testContext(fx.db, fx.dbPath), webRoot });
    eventIds = (fx.db.prepare('SELECT id FROM events ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  }, 60_000);
  afterAll(() => fx.cleanup());

  async function send(method: string, url: string, body?: string) {
    const res = await app.request(`http://localhost${url}`, {
      method,
      headers: { host: 'localhost', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body,
    });
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      await res.body?.cancel();
      return { status: res.status, type, text: '' };
    }
    return { status: res.status, type, text: await res.text() };
  }

  /** No 5xx; every 4xx is JSON in exactly the one error body. The URL is in the message, to replay it. */
  function expectClean(what: string, r: { status: number; type: string; text: string }) {
    expect(r.status, `${what} → ${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(500);
    if (r.status >= 400) {
      expect(r.type, what).toContain('application/json');
      expect(StrictErrorBody.safeParse(JSON.parse(r.text)).success, `${what}: ${r.text.slice(0, 300)}`).toBe(true);
    }
  }

  it('the table of route inputs names every route of the app (a new route gets fuzzed too)', () => {
    const routes = new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
    expect([...routes].sort()).toEqual(Object.keys(ROUTE_INPUTS).sort());
  });

  it('a NUL character in text that becomes an FTS5 query is a 400 that says so (search, span filter and seek, triage events)', async () => {
    const span = `/api/sessions/${FUZZ_SESSION}/spans`;
    for (const [url, code] of [
      ['/api/search?q=retry%00loop', 'bad_query'],
      ['/api/search?q=%22retry%20%00%22', 'bad_query'],
      ['/api/search?q=retry%20file:a%00b', 'bad_query'],
      [`${span}?q=ret%00ry`, 'bad_request'],
      [`${span}/seek?from=-1&what=match&q=ret%00ry`, 'bad_request'],
      ['/api/events?q=ret%00ry', 'bad_request'],
    ] as const) {
      const r = await send('GET', url);
      expect([url, r.status]).toEqual([url, 400]);
      const body = StrictErrorBody.parse(JSON.parse(r.text));
      expect([url, body.error.code]).toEqual([url, code]);
      expect(body.error.message).toMatch(/NUL character/);
    }
  });

  it('type:__proto__, type:constructor and the other prototype names are not types (400, the list of types)', async () => {
    for (const name of PROTOTYPE_NAMES) {
      const r = await send('GET', `/api/search?q=retry%20type:${name}`);
      expect([name, r.status]).toEqual([name, 400]);
      expect(StrictErrorBody.parse(JSON.parse(r.text)).error).toEqual({
        code: 'bad_query',
        message: `type:${name} is not a type: use one of user, response, tool, llm, error, discovery, hook, subagent.`,
      });
    }
  });

  it(`an event nested ${DEEP_LEVELS} levels deep is shown down to ${MAX_JSON_DEPTH} levels, the rest marked, its raw line whole`, async () => {
    const id = (fx.db.prepare("SELECT id FROM events WHERE name = 'deep_tool'").get() as { id: number }).id;
    for (const q of ['', '?maxChars=256']) {
      const r = await send('GET', `/api/events/${id}${q}`);
      expect(r.status, q).toBe(200);
      const detail = EventDetail.parse(JSON.parse(r.text));
      let v: unknown = detail.attrs.args;
      let depth = 1; // attrs.args is at depth 1 below attrs
      while (typeof v === 'object' && v !== null) {
        v = (v as { a: unknown }).a;
        depth++;
      }
      expect([depth, v]).toEqual([MAX_JSON_DEPTH, tooDeepMarker(MAX_JSON_DEPTH)]);
      expect(detail.rawLength).toBe(fuzzLogs()[`${FUZZ_SESSION}/main.jsonl`].split('\n')[4].length);
    }
  });

  for (const [route, inputs] of Object.entries(ROUTE_INPUTS)) {
    it(`${route}: hostile path parameters, query parameters and bodies`, async () => {
      const rng = new Rng(hashSeed('robustness-fuzz', route));
      const [method, pattern] = route.split(' ');
      const props = inputs.query ? ((z.toJSONSchema(inputs.query, { io: 'input', unrepresentable: 'any' }).properties ?? {}) as Record<string, JsonProperty>) : {};
      const names = [...Object.keys(props), 'token', '__proto__', 'constructor'];
      const rounds = inputs.stream ? 8 : inputs.json ? 40 : 120;
      for (let round = 0; round < rounds; round++) {
        let url = pattern === '/*' ? `/${urlEncoded(rng, hostileString(rng))}/${urlEncoded(rng, hostileString(rng))}` : pattern.replace(/:id/g, () => pathValue(rng, { events: eventIds }));
        const params: string[] = [];
        for (const name of names) {
          if (!rng.chance(Object.hasOwn(props, name) ? 0.6 : 0.15)) continue;
          const hostile = rng.chance(0.35);
          const value = hostile ? urlEncoded(rng, hostileString(rng)) : percentEncoded(plausible(rng, name, props[name] ?? {}, { events: eventIds }));
          params.push(`${encodeURIComponent(name)}=${value}`);
          if (rng.chance(0.05)) params.push(`${encodeURIComponent(name)}=${value}`); // repeated: an array to a naive reader
        }
        if (params.length > 0) url += `?${params.join('&')}`;
        let body: string | undefined;
        if (inputs.json) {
          const sql = rng.pick([hostileString(rng), 'SELECT 1', `SELECT count(*) FROM events WHERE name = '${hostileString(rng).replace(/'/g, "''")}'`]);
          body = rng.pick([
            JSON.stringify({ sql }),
            JSON.stringify(hostileJson(rng)),
            JSON.stringify({ sql: hostileJson(rng) }),
            JSON.stringify({ __proto__: { sql: 'SELECT 1' }, sql }),
            '{"sql": ',
            hostileString(rng),
          ]);
        }
        expectClean(`${method} ${url}${body !== undefined ? ` body ${body.slice(0, 120)}` : ''}`, await send(method, url, body));
      }
    }, 60_000);
  }
});
