import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorGroupsResponse, EventListResponse, HistogramResponse, LatencyStatsResponse, ScatterResponse, TimeseriesResponse, TriageCountsResponse } from '../../shared/api';
import { createApp } from '../app';
import { testContext } from '../test-support/test-app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { EventListQuery } from '../../shared/api';
import { eventFilter, eventListNeedsModel, listEvents } from './events';
import { planOf, recordStatements } from '../test-support/record-statements';
import { clearStatements } from '../db/statements';
import { countInModel, pageInModel } from './model-filter';
import { triageModel, triageModelBehind } from './model';

const S1 = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';
const HOUR = 3_600_000;
// S1 and S2 ran two hours ago, S3 ten days ago: the 24h window holds S1 and S2 only.
const RECENT = Date.now() - 2 * HOUR;
const OLD = Date.now() - 240 * HOUR;

let seq = 0;
const ev = (sid: string, t0: number, at: number, type: string, name: string, o: { dur?: number; status?: string; attrs?: object; spanId?: string } = {}) =>
  line({ ts: t0 + at, dur: o.dur ?? 0, sid, type, name, spanId: o.spanId ?? `span-${++seq}`, parentSpanId: 'R', status: o.status ?? 'ok', attrs: o.attrs ?? {} });

// Core events copied into S1 and S2 (FORMAT §4.4): each counts once in every statistic, twice in jq's raw count.
const coreSkip = (sid: string) => ev(sid, RECENT, 1, 'discovery', 'Load Skills', { spanId: 'core-skills', attrs: { details: 'loaded: ["a"] skipped: [{"path": ".github/skills/x/SKILL.md", "reason": "name-mismatch"}]', category: 'discovery', source: 'core' } });
const coreFail = (sid: string) => ev(sid, RECENT, 2, 'discovery', 'Load Instructions', { spanId: 'core-instr', status: 'error', attrs: { details: 'Failed to read .github/instructions/legacy.instructions.md: EACCES: permission denied', source: 'core' } });
const coreSlow = (sid: string) => ev(sid, RECENT, 3, 'generic', 'MCP Servers Started', { spanId: 'core-mcp', dur: 6000, attrs: { details: 'started', source: 'core' } });

const S1_LOG =
  coreSkip(S1) +
  coreFail(S1) +
  coreSlow(S1) +
  ev(S1, RECENT, 100, 'user_message', 'user_message', { spanId: 'R1', attrs: { content: 'fix the flaky retry test' } }) +
  ev(S1, RECENT, 1_000, 'llm_request', 'chat:gpt-4.1', { dur: 6000, attrs: { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 200, cachedTokens: 100, ttft: 800 } }) +
  ev(S1, RECENT, 10_000, 'llm_request', 'chat:gpt-4.1', { dur: 2000, attrs: { model: 'gpt-4.1', inputTokens: 1500, outputTokens: 100, ttft: 500 } }) +
  ev(S1, RECENT, 20_000, 'llm_request', 'chat:claude-sonnet-4', { dur: 9000, status: 'error', attrs: { model: 'claude-sonnet-4', error: 'Server error: 429 Too Many Requests; retry after 12 seconds.' } }) +
  ev(S1, RECENT, 30_000, 'tool_call', 'read_file', { dur: 30, status: 'error', attrs: { args: '{}', error: 'File not found: /a/b.ts' } }) +
  ev(S1, RECENT, 40_000, 'tool_call', 'read_file', { dur: 40, status: 'error', attrs: { args: '{}', error: 'File not found: /c/d.ts' } }) +
  ev(S1, RECENT, 50_000, 'tool_call', 'run_in_terminal', { dur: 61_000, status: 'error', attrs: { args: '{}', error: 'Command timed out after 60000 ms' } }) +
  ev(S1, RECENT, 120_000, 'tool_call', 'read_file', { dur: 10, attrs: { args: '{}', result: 'ok' } }) +
  ev(S1, RECENT, 121_000, 'hook', 'PreToolUse', { dur: 12, attrs: { resultKind: 'non_blocking_error', error: 'guard.sh: line 12: jq: command not found' } }) +
  ev(S1, RECENT, 122_000, 'hook', 'Stop', { dur: 7000, status: 'error', attrs: { resultKind: 'error', error: 'Hook blocked the tool call: guard.sh exited with 2' } });

const S2_LOG =
  coreSkip(S2) +
  coreFail(S2) +
  coreSlow(S2) +
  ev(S2, RECENT, 200, 'user_message', 'user_message', { spanId: 'R2', attrs: { content: 'add a changelog entry' } }) +
  ev(S2, RECENT, 300, 'llm_request', 'chat:gpt-4.1', { dur: 7000, attrs: { model: 'gpt-4.1', inputTokens: 3000, outputTokens: 300, ttft: 900 } }) +
  ev(S2, RECENT, 8_000, 'tool_call', 'read_file', { dur: 20, status: 'error', attrs: { args: '{}', error: 'File not found: /x/y.ts' } });

const S3_LOG =
  ev(S3, OLD, 100, 'user_message', 'user_message', { spanId: 'R3', attrs: { content: 'bump the version' } }) +
  ev(S3, OLD, 200, 'llm_request', 'chat:gpt-4.1', { dur: 12_000, attrs: { model: 'gpt-4.1', inputTokens: 20_000, outputTokens: 500, ttft: 3000 } }) +
  ev(S3, OLD, 13_000, 'tool_call', 'read_file', { dur: 15, status: 'error', attrs: { args: '{}', error: 'File not found: /q.ts' } });

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

async function setup() {
  fx = await fixtureDb({ [`${S1}/main.jsonl`]: S1_LOG, [`${S2}/main.jsonl`]: S2_LOG, [`ws2:${S3}/main.jsonl`]: S3_LOG });
  const ctx = testContext(fx.db, fx.dbPath);
  const app = createApp(ctx);
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    expect(res.status, url).toBe(status);
    return (await res.json()) as T;
  };
  return { fx, get };
}

describe('GET /api/triage/counts', () => {
  it('counts slow events and errors once (canonical) and per line (raw, as jq does)', async () => {
    const { get } = await setup();
    const c = await get<TriageCountsResponse>('/api/triage/counts');
    // slow: S1 llm 6000, claude 9000, terminal 61000, Stop hook 7000, core generic 6000; S2 llm 7000; S3 llm 12000
    expect(c.slow).toMatchObject({ minDur: 5000, unique: 7, raw: 8, jq: 'select(.dur > 5000)' });
    // errors: S1 claude, read_file ×2, terminal, Stop hook, core discovery; S2 read_file; S3 read_file
    expect(c.errors).toMatchObject({ unique: 8, raw: 9 });
    // failures: the 8 errors, the non-blocking hook, the discovery skip
    expect(c.failures.unique).toBe(10);
  });

  it('scopes the raw counts by repository too: each repository\'s lines, copies included, and they add up', async () => {
    const { get } = await setup();
    const [all, ws1, ws2] = await Promise.all(['', '?repo=ws1', '?repo=ws2'].map((q) => get<TriageCountsResponse>(`/api/triage/counts${q}`)));
    // ws1 holds S1 and S2 (the core copies count in each), ws2 holds S3
    expect([ws1.slow.raw, ws2.slow.raw]).toEqual([7, 1]);
    expect([ws1.errors.raw, ws2.errors.raw]).toEqual([8, 1]);
    expect(ws1.slow.raw + ws2.slow.raw).toBe(all.slow.raw);
    expect(ws1.errors.raw + ws2.errors.raw).toBe(all.errors.raw);
    // a window does not scope them: jq has no window
    expect((await get<TriageCountsResponse>('/api/triage/counts?repo=ws1&window=24h')).slow.raw).toBe(7);
  });
});

describe('GET /api/events', () => {
  it('lists the calls slower than 5 s across sessions, slowest first, with session facts', async () => {
    const { get } = await setup();
    const r = await get<EventListResponse>('/api/events');
    expect(r.total).toBe(7);
    expect(r.events.map((e) => e.dur)).toEqual([61_000, 12_000, 9000, 7000, 7000, 6000, 6000]);
    const top = r.events[0];
    expect(top).toMatchObject({ sessionId: S1, type: 'tool_call', tool: 'run_in_terminal', status: 'error', repository: 'ws1', sessionTitle: 'fix the flaky retry test' });
    expect(top.signature).toBe('Command timed out after <n> ms');
    expect(r.events[1]).toMatchObject({ sessionId: S3, repository: 'ws2', model: 'gpt-4.1', ttft: 3000, tokensIn: 20_000, tokensOut: 500 });
  });

  it('answers a threshold below the slow one and the TTFT sort from the model, and the slow list down the slow indexes', async () => {
    const { fx, get } = await setup();
    // the archive indexes only calls slower than 5 s by duration and time (schema.ts): 2000 ms is the model's
    const above1s = await get<EventListResponse>('/api/events?min=1000');
    expect(above1s.events.map((e) => e.dur)).toEqual([61_000, 12_000, 9000, 7000, 7000, 6000, 6000, 2000]);
    expect(above1s.total).toBe(8);
    const newest = await get<EventListResponse>('/api/events?min=1000&sort=ts');
    expect(newest.events.map((e) => e.dur)).toEqual([7000, 61_000, 9000, 2000, 6000, 7000, 6000, 12_000]);
    const slowNewest = await get<EventListResponse>('/api/events?sort=ts');
    expect(slowNewest.events.map((e) => e.dur)).toEqual([7000, 61_000, 9000, 6000, 7000, 6000, 12_000]);
    const plansOf = (q: Record<string, string>) => {
      clearStatements(fx.db);
      const recorded = recordStatements(fx.db, () => listEvents(fx.db, EventListQuery.parse(q)));
      return recorded.filter((r) => /FROM events e CROSS JOIN sessions/.test(r.sql)).map((r) => planOf(fx.db, r).join('; '));
    };
    expect(plansOf({})).toEqual([expect.stringMatching(/^SEARCH e USING INDEX events_dur \(dur>\?\)/)]);
    expect(plansOf({ sort: 'ts' })).toEqual([expect.stringMatching(/^SEARCH e USING INDEX events_slow_ts /)]);
    // below the threshold, and by TTFT, SQL only reads the page's rows by id
    expect(plansOf({ min: '1000' })).toEqual([expect.stringMatching(/^SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/)]);
    expect(plansOf({ sort: 'ttft' })).toEqual([expect.stringMatching(/^SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/)]);
    const byTtft = await get<EventListResponse>('/api/events?sort=ttft');
    expect(byTtft.events.map((e) => [e.dur, e.ttft])).toEqual([[12_000, 3000], [7000, 900], [6000, 800]]);
    expect(byTtft.total).toBe(3);
  });

  it('filters by type and model, and sorts by ttft', async () => {
    const { get } = await setup();
    const r = await get<EventListResponse>('/api/events?type=llm_request&model=gpt-4.1');
    expect(r.events.map((e) => e.dur)).toEqual([12_000, 7000, 6000]);
    const byTtft = await get<EventListResponse>('/api/events?type=llm_request&sort=ttft&min=0');
    expect(byTtft.events.map((e) => e.ttft)).toEqual([3000, 900, 800, 500]);
    expect(byTtft.total).toBe(4);
  });

  it('narrows by window, repository, session, status and text', async () => {
    const { get } = await setup();
    expect((await get<EventListResponse>('/api/events?window=24h')).total).toBe(6);
    expect((await get<EventListResponse>('/api/events?repo=ws2')).events.map((e) => e.sessionId)).toEqual([S3]);
    expect((await get<EventListResponse>(`/api/events?session=${S2}&min=-1&type=llm_request,tool_call`)).total).toBe(2);
    expect((await get<EventListResponse>('/api/events?status=error')).total).toBe(3);
    expect((await get<EventListResponse>('/api/events?q=timed%20out&min=-1')).events.map((e) => e.tool)).toEqual(['run_in_terminal']);
  });

  it('pages with a keyset cursor without losing or repeating rows', async () => {
    const { get } = await setup();
    const all = await get<EventListResponse>('/api/events?min=-1&limit=500');
    const seen: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const p: EventListResponse = await get<EventListResponse>(`/api/events?min=-1&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...p.events.map((e) => e.id));
      cursor = p.nextCursor;
    }
    expect(seen).toEqual(all.events.map((e) => e.id));
    expect(seen.length).toBe(all.total);
  });

  it('lists the occurrences of an error group by its signature', async () => {
    const { get } = await setup();
    const sig = encodeURIComponent('File not found: <path>');
    const r = await get<EventListResponse>(`/api/events?type=tool_call&tool=read_file&sig=${sig}&min=-1&sort=ts`);
    expect(r.total).toBe(4);
    expect(r.events.map((e) => e.error)).toEqual(['File not found: /c/d.ts', 'File not found: /a/b.ts', 'File not found: /x/y.ts', 'File not found: /q.ts']);
  });

  it('answers a bad parameter or cursor with the one error body', async () => {
    const { get } = await setup();
    const bad = await get<{ error: { code: string } }>('/api/events?sort=size', 400);
    expect(bad.error.code).toBe('bad_request');
    const cur = await get<{ error: { code: string } }>('/api/events?cursor=nope', 400);
    expect(cur.error.code).toBe('bad_cursor');
  });
});

describe('list totals from the triage model', () => {
  it('equal a SQL count for every filter the model can answer', async () => {
    const { fx } = await setup();
    const now = Date.now();
    const m = triageModel(fx.db, now);
    const cases: Record<string, string>[] = [
      {},
      { min: '0' },
      { min: '-1', type: 'llm_request' },
      { min: '-1', status: 'error' },
      { model: 'gpt-4.1' },
      { model: 'gpt-4.1', min: '-1', window: '24h' },
      { tool: 'read_file', min: '-1' },
      { type: 'hook', name: 'Stop', min: '-1' },
      { type: 'discovery', failed: '1', min: '-1' },
      { sig: 'File not found: <path>', min: '-1', sort: 'ts' },
      { sort: 'ttft', min: '-1' },
      { repo: 'ws2', min: '-1', type: 'tool_call,llm_request' },
      { repo: '', min: '0' },
      { session: S1, min: '0', max: '6000' },
      { min: '10', max: '100', type: 'tool_call', status: 'ok' },
      { model: 'no-such-model', min: '-1' },
    ];
    let answered = 0;
    for (const c of cases) {
      const q = EventListQuery.parse(c);
      const { where, params } = eventFilter(q, now);
      const sql = (fx.db.prepare(`SELECT count(*) n FROM events e WHERE ${where.join(' AND ')}`).get(params) as { n: number }).n;
      const model = countInModel(m, q, now);
      if (model !== null) answered++;
      expect(model ?? sql, JSON.stringify(c)).toBe(sql);
      // and the same rows in the same order, page after page
      for (const order of ['desc', 'asc'] as const) {
        const o = { ...q, order };
        const col = { dur: 'e.dur', ts: 'e.ts', ttft: 'e.ttft' }[o.sort];
        const dir = order === 'desc' ? 'DESC' : 'ASC';
        const sqlIds = (fx.db.prepare(`SELECT e.id FROM events e WHERE ${where.join(' AND ')} ORDER BY ${col} ${dir}, e.id ${dir}`).all(params) as { id: number }[]).map((r) => r.id);
        const pages: number[] = [];
        let after: (number | null)[] | null = null;
        for (let guard = 0; guard < 50; guard++) {
          const p: { ids: number[]; keys: number[] } = pageInModel(m, o, after, 2, now)!;
          pages.push(...p.ids);
          if (p.ids.length < 2) break;
          after = [p.keys[1], p.ids[1]];
        }
        expect(pages, `${JSON.stringify(c)} ${order}`).toEqual(sqlIds);
      }
    }
    expect(answered).toBe(cases.length);
    // instant events of any type and text need SQL
    expect(countInModel(m, EventListQuery.parse({ min: '-1' }), now)).toBeNull();
    expect(countInModel(m, EventListQuery.parse({ q: 'retry' }), now)).toBeNull();
  });
});

describe('GET /api/errors/groups', () => {
  it('groups failures by kind, subject and signature, copies excluded', async () => {
    const { get } = await setup();
    const r = await get<ErrorGroupsResponse>('/api/errors/groups');
    expect(r.totalFailures).toBe(10);
    expect(r.totalGroups).toBe(7);
    const top = r.groups[0];
    expect(top).toMatchObject({ kind: 'tool', subject: 'read_file', signature: 'File not found: <path>', type: 'tool_call', count: 4, sessions: 3 });
    expect(top.latest.message).toBe('File not found: /c/d.ts');
    expect(top.sparkline.reduce((a, b) => a + b, 0)).toBe(4);
    expect(top.firstSeen).toBe(OLD + 13_000);
    expect(top.lastSeen).toBe(RECENT + 40_000);
    const labels = r.groups.map((g) => `${g.kind}/${g.subject}/${g.signature}/${g.count}`).sort();
    expect(labels).toEqual([
      'discovery/Load Instructions/Failed to read <path>: EACCES: permission denied/1',
      'discovery/Load Skills/skipped: name-mismatch/1',
      'hook/PreToolUse/guard.sh: line <n>: jq: command not found/1',
      'hook/Stop/Hook blocked the tool call: guard.sh exited with <n>/1',
      'model/claude-sonnet-4/Server error: <n> Too Many Requests; retry after <n> seconds./1',
      'tool/read_file/File not found: <path>/4',
      'tool/run_in_terminal/Command timed out after <n> ms/1',
    ]);
    expect(r.byKind).toEqual({ discovery: 2, hook: 2, model: 1, tool: 5 });
  });

  it('filters by kind, window and text, and pages by offset', async () => {
    const { get } = await setup();
    const hooks = await get<ErrorGroupsResponse>('/api/errors/groups?kind=hook');
    expect(hooks.groups.map((g) => g.subject).sort()).toEqual(['PreToolUse', 'Stop']);
    expect(hooks.byKind.tool).toBe(5);
    const recent = await get<ErrorGroupsResponse>('/api/errors/groups?window=24h&kind=tool');
    expect(recent.groups.find((g) => g.subject === 'read_file')).toMatchObject({ count: 3, sessions: 2 });
    expect((await get<ErrorGroupsResponse>('/api/errors/groups?q=name-mismatch')).totalGroups).toBe(1);
    const p1 = await get<ErrorGroupsResponse>('/api/errors/groups?limit=4');
    expect(p1.nextOffset).toBe(4);
    const p2 = await get<ErrorGroupsResponse>('/api/errors/groups?limit=4&offset=4');
    expect(p2.nextOffset).toBeNull();
    expect(p1.groups.length + p2.groups.length).toBe(7);
  });
});

describe('GET /api/stats/latency', () => {
  it('gives exact nearest-rank percentiles, tokens and speed per model', async () => {
    const { get } = await setup();
    const r = await get<LatencyStatsResponse>('/api/stats/latency?by=model');
    expect(r.percentileDefinition).toMatch(/nearest-rank/);
    const gpt = r.rows.find((x) => x.key === 'gpt-4.1')!;
    // durations 2000, 6000, 7000, 12000: p50 = rank ceil(2) = 6000; p90 = rank ceil(3.6) = 12000
    expect(gpt).toMatchObject({ count: 4, errors: 0, dur: { p50: 6000, p90: 12_000, p99: 12_000, max: 12_000 } });
    expect(gpt.ttft).toEqual({ p50: 800, p90: 3000, p99: 3000, max: 3000 });
    expect(gpt).toMatchObject({ tokensIn: 25_500, tokensOut: 1100, tokensCached: 100 });
    // 1100 tokens over (5200 + 1500 + 6100 + 9000) ms of generation
    expect(gpt.outputTokensPerSec).toBe(50.5);
    const claude = r.rows.find((x) => x.key === 'claude-sonnet-4')!;
    expect(claude).toMatchObject({ count: 1, errors: 1, errorRate: 1, ttft: null, dur: { p50: 9000 } });
  });

  it('groups tools, hooks and repositories, and narrows by window', async () => {
    const { get } = await setup();
    const tools = await get<LatencyStatsResponse>('/api/stats/latency?by=tool');
    expect(tools.rows.map((x) => [x.key, x.count, x.errors])).toEqual([
      ['read_file', 5, 4],
      ['run_in_terminal', 1, 1],
    ]);
    const repos = await get<LatencyStatsResponse>('/api/stats/latency?by=repository');
    expect(repos.rows.map((x) => [x.key, x.count])).toEqual([
      ['ws1', 4],
      ['ws2', 1],
    ]);
    const hooks = await get<LatencyStatsResponse>('/api/stats/latency?by=hook');
    expect(hooks.rows.map((x) => x.key).sort()).toEqual(['PreToolUse', 'Stop']);
    const day = await get<LatencyStatsResponse>('/api/stats/latency?by=model&window=24h');
    expect(day.rows.find((x) => x.key === 'gpt-4.1')!.dur).toEqual({ p50: 6000, p90: 7000, p99: 7000, max: 7000 });
  });
});

describe('chart endpoints', () => {
  it('bins durations on 1-2-5 edges, and every bar count matches the events behind it', async () => {
    const { get } = await setup();
    const h = await get<HistogramResponse>('/api/stats/histogram?by=tool&key=read_file');
    expect(h.total).toBe(5);
    for (const b of h.buckets.filter((x) => x.count > 0)) {
      const r = await get<EventListResponse>(`/api/events?type=tool_call&tool=read_file&min=${b.lo}&max=${b.hi}`);
      expect(r.total, `${b.lo}..${b.hi}`).toBe(b.count);
    }
    expect(h.buckets.map((b) => [b.hi, b.count])).toEqual([
      [10, 1],
      [20, 2],
      [50, 2],
    ]);
  });

  it('counts calls and errors per bucket, traceable to the events', async () => {
    const { get } = await setup();
    const t = await get<TimeseriesResponse>('/api/stats/timeseries?by=tool&interval=day');
    expect(t.interval).toBe('day');
    expect(t.points.reduce((a, p) => a + p.calls, 0)).toBe(6);
    expect(t.points.reduce((a, p) => a + p.errors, 0)).toBe(5);
    const busy = t.points.filter((p) => p.calls > 0);
    for (const p of busy) {
      const r = await get<EventListResponse>(`/api/events?type=tool_call&min=-1&from=${p.t}&to=${p.t + t.bucketMs}`);
      expect(r.total).toBe(p.calls);
    }
  });

  it('plots ttft against input tokens for model calls', async () => {
    const { get } = await setup();
    const s = await get<ScatterResponse>('/api/stats/ttft-scatter?by=model');
    expect(s.total).toBe(4);
    expect(s.points.map((p) => [p.tokensIn, p.ttft]).sort((a, b) => a[0] - b[0])).toEqual([
      [1000, 800],
      [1500, 500],
      [3000, 900],
      [20_000, 3000],
    ]);
    expect(s.points.every((p) => p.sessionId !== '' && p.eventId > 0)).toBe(true);
  });
});

describe('event lists that SQL answers alone', () => {
  it('give the slow list and text searches without syncing the model, with the totals the model gives', async () => {
    const { fx, get } = await setup();
    const slowList = EventListQuery.parse({});
    expect(listEvents(fx.db, slowList).total).toBe(7);
    const fs = await import('node:fs');
    fs.appendFileSync(`${fx.logsDir()}/${S2}/main.jsonl`, ev(S2, RECENT, 9_000, 'tool_call', 'fetch_webpage', { dur: 30_500, status: 'error', attrs: { error: 'Request timed out after 30000ms' } }));
    await fx.reindex();
    const behind = triageModelBehind(fx.db);
    expect(behind).toBeGreaterThan(0);
    // a commit later: the new call, counted down events_dur, and the model still where it was
    const r = listEvents(fx.db, slowList);
    expect(r.total).toBe(8);
    expect(r.events.map((e) => e.dur)).toEqual([61_000, 30_500, 12_000, 9000, 7000, 7000, 6000, 6000]);
    const under10s = EventListQuery.parse({ max: '10000' });
    expect(listEvents(fx.db, under10s).total).toBe(5);
    const text = EventListQuery.parse({ q: 'timed out', min: '-1' });
    expect(listEvents(fx.db, text).total).toBe(2);
    expect(triageModelBehind(fx.db)).toBe(behind);
    expect((await get<EventListResponse>('/api/events')).total).toBe(8);
    expect(triageModelBehind(fx.db)).toBe(behind);
    // once synced, the model counts what SQL counted (one number everywhere)
    const m = triageModel(fx.db);
    expect(countInModel(m, slowList, Date.now())).toBe(8);
    expect(countInModel(m, under10s, Date.now())).toBe(5);
    // every other list waits for the model: a status, a time, another threshold, another order are not in events_dur
    const needs = (q: Record<string, string>) => eventListNeedsModel(EventListQuery.parse(q));
    expect([needs({}), needs({ max: '10000' }), needs({ q: 'timed out' }), needs({ q: 'ti' })]).toEqual([false, false, false, false]);
    expect([needs({ status: 'error' }), needs({ window: '24h' }), needs({ min: '1000' }), needs({ sort: 'ts' }), needs({ sort: 'ttft' }), needs({ model: 'gpt-4.1' }), needs({ sig: 'x' })]).toEqual([true, true, true, true, true, true, true]);
  });
});

describe('the triage model', () => {
  it('follows the index incrementally when lines are appended', async () => {
    const { fx, get } = await setup();
    const before = await get<TriageCountsResponse>('/api/triage/counts');
    const fs = await import('node:fs');
    fs.appendFileSync(`${fx.logsDir()}/${S2}/main.jsonl`, ev(S2, RECENT, 9_000, 'tool_call', 'fetch_webpage', { dur: 30_500, status: 'error', attrs: { error: 'Request timed out after 30000ms' } }));
    await fx.reindex();
    const after = await get<TriageCountsResponse>('/api/triage/counts');
    expect(after.slow.unique).toBe(before.slow.unique + 1);
    expect(after.errors.raw).toBe(before.errors.raw + 1);
    expect(after.version).toBeGreaterThan(before.version);
    const groups = await get<ErrorGroupsResponse>('/api/errors/groups?kind=tool');
    expect(groups.groups.find((g) => g.subject === 'fetch_webpage')?.signature).toBe('Request timed out after <n>ms');
    // the model's counters equal a scan of the table
    const scan = fx.db
      .prepare('SELECT sum(dur > 5000 AND dup = 0) su, sum(dur > 5000) sr, sum(status = 1 AND dup = 0) eu, sum(status = 1) er, sum(fail IS NOT NULL AND dup = 0) fu FROM events')
      .get() as Record<string, number>;
    expect(triageModel(fx.db).counts).toEqual({ slowUnique: scan.su, slowRaw: scan.sr, errorsUnique: scan.eu, errorsRaw: scan.er, failuresUnique: scan.fu });
  });

  it('reads everything again when rows appear behind the last id it saw (a rebuild refilling file by file)', async () => {
    const { fx } = await setup();
    const db = fx.db;
    const victim = db.prepare("SELECT * FROM events WHERE type = 'tool_call' AND tool = 'run_in_terminal'").get() as Record<string, unknown>;
    db.prepare('DELETE FROM events WHERE id = ?').run(victim.id);
    const m = triageModel(db);
    const before = m.counts.slowUnique;
    const insert = db.prepare(`INSERT INTO events (${Object.keys(victim).join(', ')}) VALUES (${Object.keys(victim).map((k) => `@${k}`).join(', ')})`);
    insert.run(victim);
    // and an instant event at the end, so that the index visibly grew
    insert.run({ ...victim, id: m.lastId + 1, type: 'turn_start', tool: null, dur: 0, status: 0, fail: null, error: null });
    // right after a sync the model only reads ahead; seconds later its check notices the gap
    expect(triageModel(db).counts.slowUnique).toBe(before);
    expect(triageModel(db, Date.now() + 60_000).counts.slowUnique).toBe(before + 1);
  });
});
