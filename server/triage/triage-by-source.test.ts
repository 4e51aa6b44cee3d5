import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorGroupsResponse, EventListResponse, HistogramResponse, LatencyStatsResponse, ScatterResponse, SessionListResponse, TimeseriesResponse, TriageCountsResponse } from '../../shared/api';
import { createApp } from '../app';
import { cliTree, MAIN } from '../ingest/cli/cli-fixture';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { runCliCaptured } from '../test-support/run-cli-captured';
import { formatCount } from '../../shared/format-numbers';

// One VS Code session beside the CLI sessions of cli-fixture (a finished one with a subagent, a crashed one, a
// detached fork): every triage figure of source=cli plus source=vscode is the unfiltered figure.
const VS = '11111111-1111-4111-8111-111111111111';
const T = Date.parse('2026-11-30T08:00:00.000Z');
let n = 0;
const ev = (at: number, type: string, name: string, dur: number, status: string, attrs: object) =>
  line({ ts: T + at, dur, sid: VS, type, name, spanId: String(++n).padStart(16, '0'), parentSpanId: 'R', status, attrs });
const VS_LOG =
  ev(0, 'user_message', 'user_message', 0, 'ok', { content: 'fix it' }) +
  ev(100, 'llm_request', 'chat:gpt-4.1', 6000, 'ok', { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 200, ttft: 800 }) +
  ev(7000, 'llm_request', 'chat:gpt-4.1', 9000, 'error', { model: 'gpt-4.1', error: 'Server error: 429 Too Many Requests' }) +
  ev(17000, 'tool_call', 'read_file', 30, 'error', { args: '{}', error: 'File not found: /a/b.ts' }) +
  ev(18000, 'tool_call', 'run_in_terminal', 61_000, 'ok', { args: '{}', result: 'ok' });

let fx: FixtureDb;
let get: <T>(url: string) => Promise<T>;
beforeAll(async () => {
  fx = await fixtureDb({ [`${VS}/main.jsonl`]: VS_LOG }, { cli: cliTree() });
  const app = createApp(testContext(fx.db, fx.dbPath));
  get = async <T>(url: string): Promise<T> => {
    const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    expect(res.status, url).toBe(200);
    return (await res.json()) as T;
  };
});
afterAll(() => fx.cleanup());

/** What a command prints for people (no --json). */
async function text(...args: string[]): Promise<string> {
  const r = await runCliCaptured([...args, '--db', fx.dbPath, '--no-index']);
  expect(r.code).toBe(0);
  return r.out;
}

const SOURCES = ['', '&source=cli', '&source=vscode'] as const;
/** a figure unfiltered, of the CLI sessions, of VS Code's */
async function bySource(url: string, figure: (body: never) => number): Promise<number[]> {
  const sep = url.includes('?') ? '' : '?';
  return Promise.all(SOURCES.map(async (s) => figure((await get(`${url}${sep}${s}`)) as never)));
}
/** the same figure from SQL over the events of each source (canonical rows: dup = 0) */
const sqlCount = (where: string) =>
  ['1', "s.source = 'cli'", "s.source = 'vscode'"].map(
    (src) => (fx.db.prepare(`SELECT count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.dup = 0 AND ${where} AND ${src}`).get() as { n: number }).n,
  );

describe('triage by source (source=cli|vscode)', () => {
  it('GET /api/events: the slow calls, the errors and the model calls of each source add up to all of them', async () => {
    const slow = await bySource('/api/events', (r: EventListResponse) => r.total);
    expect(slow).toEqual([3, 0, 3]);
    const errors = await bySource('/api/events?min=-1&status=error', (r: EventListResponse) => r.total);
    expect(errors).toEqual(sqlCount('e.status = 1'));
    expect(errors[1]).toBeGreaterThan(0);
    expect(errors[0]).toBe(errors[1] + errors[2]);
    const calls = await bySource('/api/events?min=-1&type=llm_request', (r: EventListResponse) => r.total);
    expect(calls).toEqual(sqlCount("e.type = 'llm_request'"));
    expect(calls[2]).toBe(2);
    expect(calls[0]).toBe(calls[1] + calls[2]);
    // the rows themselves are of that source, paged by the model or by SQL alike
    const cliRows = await get<EventListResponse>('/api/events?min=-1&source=cli&limit=500');
    expect(new Set(cliRows.events.map((e) => e.source))).toEqual(new Set(['cli']));
    expect(cliRows.total).toBe(sqlCount('1')[1]);
    const text = await get<EventListResponse>('/api/events?min=-1&q=read_file&source=cli');
    expect(text.total).toBe(0);
  });

  it('GET /api/triage/counts and /api/errors/groups: the headline numbers split by source', async () => {
    const counts = await Promise.all(SOURCES.map((s) => get<TriageCountsResponse>(`/api/triage/counts?window=all${s}`)));
    const [all, cli, vscode] = counts;
    expect([all.slow.unique, cli.slow.unique, vscode.slow.unique]).toEqual([3, 0, 3]);
    // raw counts (every line, as jq counts them) are the source's own lines too, and add up
    const raw = (where: string) =>
      ['1', "s.source = 'cli'", "s.source = 'vscode'"].map((src) => (fx.db.prepare(`SELECT count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE ${where} AND ${src}`).get() as { n: number }).n);
    expect([all.slow.raw, cli.slow.raw, vscode.slow.raw]).toEqual(raw('e.dur > 5000'));
    expect([all.errors.raw, cli.errors.raw, vscode.errors.raw]).toEqual(raw('e.status = 1'));
    expect(vscode.slow.raw).toBe(3);
    expect(all.errors.raw).toBe(cli.errors.raw + vscode.errors.raw);
    expect(cli.errors.raw).toBeGreaterThan(0);
    expect([all.errors.unique, cli.errors.unique, vscode.errors.unique]).toEqual(sqlCount('e.status = 1'));
    expect(all.failures.unique).toBe(cli.failures.unique + vscode.failures.unique);
    expect(vscode.failures.unique).toBe(2);
    const failures = await bySource('/api/errors/groups', (r: ErrorGroupsResponse) => r.totalFailures);
    expect(failures).toEqual([all.failures.unique, cli.failures.unique, vscode.failures.unique]);
    const groups = await get<ErrorGroupsResponse>('/api/errors/groups?source=vscode');
    expect(groups.groups.map((g) => g.subject).sort()).toEqual(['gpt-4.1', 'read_file']);
  });

  it('statistics and charts: calls per source add up to all calls', async () => {
    const sumCount = (r: LatencyStatsResponse) => r.rows.reduce((a, x) => a + x.count, 0);
    const models = await bySource('/api/stats/latency?by=model', sumCount);
    expect(models).toEqual(sqlCount("e.type = 'llm_request'"));
    const tools = await bySource('/api/stats/latency?by=tool', sumCount);
    expect(tools).toEqual(sqlCount("e.type = 'tool_call'"));
    expect(tools[2]).toBe(2);
    expect(await bySource('/api/stats/latency?by=repository', sumCount)).toEqual(models);
    expect(await bySource('/api/stats/histogram?by=model', (r: HistogramResponse) => r.total)).toEqual(models);
    expect(await bySource('/api/stats/timeseries?by=tool', (r: TimeseriesResponse) => r.points.reduce((a, p) => a + p.calls, 0))).toEqual(tools);
    expect(await bySource('/api/stats/ttft-scatter?by=model', (r: ScatterResponse) => r.total)).toEqual([1, 0, 1]);
    const cliModels = await get<LatencyStatsResponse>('/api/stats/latency?by=model&source=cli');
    expect(cliModels.rows.map((r) => r.key)).toContain('claude-sonnet-4.5');
    expect(cliModels.rows.map((r) => r.key)).not.toContain('gpt-4.1');
  });

  it('statistics: a token total no call of the group reported is null, not 0; each says how many calls reported it', async () => {
    // Copilot CLI writes a model call's output tokens but its input and cached tokens only per session
    // (session.shutdown, INTEROP §3); VS Code's failed call reports none, and this log's calls no cachedTokens.
    const sums = (model: string) =>
      fx.db
        .prepare(`SELECT count(tokens_in) inN, sum(tokens_in) inSum, count(tokens_out) outN, sum(tokens_out) outSum, count(tokens_cached) cachedN FROM events WHERE type = 'llm_request' AND dup = 0 AND model = ?`)
        .get(model) as { inN: number; inSum: number | null; outN: number; outSum: number; cachedN: number };
    const cli = (await get<LatencyStatsResponse>('/api/stats/latency?by=model&source=cli')).rows.find((r) => r.key === 'claude-sonnet-4.5')!;
    const facts = sums('claude-sonnet-4.5');
    expect([facts.inN, facts.cachedN, facts.outN > 0]).toEqual([0, 0, true]);
    expect(cli).toMatchObject({ tokensIn: null, tokensInCount: 0, tokensCached: null, tokensCachedCount: 0, tokensOut: facts.outSum, tokensOutCount: facts.outN });
    const vs = (await get<LatencyStatsResponse>('/api/stats/latency?by=model&source=vscode')).rows.find((r) => r.key === 'gpt-4.1')!;
    expect(vs).toMatchObject({ count: 2, tokensIn: 1000, tokensInCount: 1, tokensOut: 200, tokensOutCount: 1, tokensCached: null, tokensCachedCount: 0 });
    // the command line prints the unknown as "—" and MCP hands it over as null
    const table = await text('stats', '--by', 'model', '--source', 'cli');
    const row = table.split('\n').find((l) => l.startsWith('claude-sonnet-4.5'))!;
    expect(row.trim().split(/\s{2,}/).slice(-4)).toEqual(['—', formatCount(facts.outSum), '—', expect.any(String)]);
    expect(table).toContain('Tokens "—": no call of the row reported them (Copilot CLI writes input and cached tokens per session: `chronoscope usage`).');
  });

  it("agrees with the sessions list: a source's errors are the sum of its sessions' error counts", async () => {
    const errors = await bySource('/api/events?min=-1&status=error', (r: EventListResponse) => r.total);
    const listed = await bySource('/api/sessions?children=1&limit=500', (r: SessionListResponse) => r.sessions.reduce((a, s) => a + s.errorCount, 0));
    // no copied core events here: every error is counted once in its session and once in triage
    expect(errors).toEqual(listed);
    const cliSessions = await get<SessionListResponse>('/api/sessions?children=1&source=cli&limit=500');
    expect(cliSessions.sessions.map((s) => s.id)).toContain(MAIN);
  });
});

describe('the triage commands take --source like the API', () => {
  async function json(...args: string[]): Promise<{ code: number; body: Record<string, unknown> }> {
    const r = await runCliCaptured([...args, '--db', fx.dbPath, '--no-index', '--json']);
    return { code: r.code, body: JSON.parse(r.out) as Record<string, unknown> };
  }
  it('slow, errors and stats count what the API counts for that source', async () => {
    const [cliErrors, vsErrors] = sqlCount('e.status = 1').slice(1);
    const slow = await json('slow', '--min=-1', '--type', 'tool_call', '--source', 'vscode');
    expect({ code: slow.code, total: slow.body.total }).toEqual({ code: 0, total: 2 });
    expect((await json('errors', '--source', 'cli')).body.totalFailures).toBe((await get<ErrorGroupsResponse>('/api/errors/groups?source=cli')).totalFailures);
    expect((await json('errors', '--source', 'vscode')).body.totalFailures).toBe(2);
    const stats = (await json('stats', '--by', 'model', '--source', 'cli')).body as unknown as LatencyStatsResponse;
    expect(stats.rows.reduce((a, r) => a + r.errors, 0)).toBe((await get<LatencyStatsResponse>('/api/stats/latency?by=model&source=cli')).rows.reduce((a, r) => a + r.errors, 0));
    expect(cliErrors + vsErrors).toBe(sqlCount('e.status = 1')[0]);
  });
});
