import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { UsageQuery, type UsageResponse } from '../../shared/api';
import { runUsage } from '../cli/usage';
import { parseOptions } from '../config';
import { getSessionDetail } from '../sessions/session-detail';
import { listSessions } from '../sessions/list-sessions';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { usage } from './usage';
import { planOf, recordStatements } from '../test-support/record-statements';
import { clearStatements } from '../db/statements';

// Usage: credits are Σ copilotUsageNanoAiu / 10⁹ over canonical model calls; calls without credit data are
// counted apart, never guessed. The fixture is written the way the current logger writes (span ids restart at
// 1 in each session) with calls that carry credits and cached tokens, and calls that carry neither.

const NOW = Date.UTC(2026, 11, 1, 12);
const DAY = 86_400_000;
const S1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const S2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const id = (n: number) => n.toString(16).padStart(16, '0');
const msg = (sid: string, ts: number, n: number) => line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: id(n), status: 'ok', attrs: { content: `request ${n} of ${sid}` } });
const call = (sid: string, ts: number, n: number, parent: number, attrs: Record<string, unknown>) =>
  line({ ts, dur: 1000, sid, type: 'llm_request', name: `chat:${String(attrs.model)}`, spanId: id(n), parentSpanId: id(parent), status: 'ok', attrs });

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({
    [`${S1}/main.jsonl`]: [
      msg(S1, NOW - 2 * DAY, 1),
      call(S1, NOW - 2 * DAY + 10, 2, 1, { model: 'gpt-4.1', inputTokens: 10_000, outputTokens: 200, cachedTokens: 8000, copilotUsageNanoAiu: 1_234_567_891 }),
      call(S1, NOW - 2 * DAY + 20, 3, 1, { model: 'gpt-4.1', inputTokens: 12_000, outputTokens: 100, copilotUsageNanoAiu: 7 }),
      msg(S1, NOW - 3_600_000, 4),
      // no credit data, no cached tokens: a utility call
      call(S1, NOW - 3_600_000 + 10, 5, 4, { model: 'gpt-4o-mini', inputTokens: 500, outputTokens: 20 }),
    ].join(''),
    [`ws2:${S2}/main.jsonl`]: [
      msg(S2, NOW - 40 * DAY, 1),
      call(S2, NOW - 40 * DAY + 5, 2, 1, { model: 'gpt-4.1', inputTokens: 3000, outputTokens: 30, cachedTokens: 1000, copilotUsageNanoAiu: '500000000' }),
    ].join(''),
  });
});
afterAll(() => fx.cleanup());

const q = (o: Record<string, string>) => UsageQuery.parse(o);

describe('usage', () => {
  it('totals every canonical model call of the window; credits exact to 1e-9', () => {
    const r = usage(fx.db, q({ window: 'all' }), NOW);
    expect(r.totals).toEqual({
      requests: 3,
      modelCalls: 4,
      tokensIn: 25_500,
      tokensOut: 350,
      tokensCached: 9000,
      cacheHitRatio: 9000 / 25_500,
      credits: 1.734567898,
      creditsNano: 1_734_567_898,
      creditsEstimated: 0,
      usd: 1.734567898 * 0.01,
      callsWithoutCredits: 1,
      estimated: false,
      tokensInEstimated: 0,
      tokensCachedEstimated: 0,
      sessionsWithoutUsage: 0,
    });
  });

  it('reads requests and model calls through their own small indexes, never a scan of every event', () => {
    clearStatements(fx.db);
    const recorded = recordStatements(fx.db, () => usage(fx.db, q({ window: '7d', by: 'day' }), NOW));
    const plans = recorded.filter((r) => /FROM events e/.test(r.sql)).map((r) => planOf(fx.db, r).join('; '));
    expect(plans.length).toBeGreaterThan(2);
    for (const p of plans) expect(p).toMatch(/^SEARCH e USING INDEX events_(requests|model_calls) \(ts>\?\)/);
    expect(plans.some((p) => p.includes('events_requests'))).toBe(true);
  });

  it('by model: requests belong to no model, calls without credits are counted per model', () => {
    const r = usage(fx.db, q({ window: '7d', by: 'model' }), NOW);
    expect(r.rows.map((x) => [x.key, x.modelCalls, x.credits, x.callsWithoutCredits, x.requests])).toEqual([
      ['gpt-4.1', 2, 1.234567898, 0, 0],
      ['gpt-4o-mini', 1, 0, 1, 0],
    ]);
    expect(r.totals.requests).toBe(2);
  });

  it('by repository and by UTC day, newest day first; a repository narrows everything', () => {
    expect(usage(fx.db, q({ window: 'all', by: 'repository' }), NOW).rows.map((x) => [x.key, x.requests, x.modelCalls, x.credits])).toEqual([
      ['ws1', 2, 3, 1.234567898],
      ['ws2', 1, 1, 0.5],
    ]);
    expect(usage(fx.db, q({ window: 'all', by: 'day' }), NOW).rows.map((x) => [x.key, x.requests, x.modelCalls])).toEqual([
      ['2026-12-01', 1, 1],
      ['2026-11-29', 1, 2],
      ['2026-10-22', 1, 1],
    ]);
    const ws2 = usage(fx.db, q({ window: 'all', repo: 'ws2' }), NOW);
    expect([ws2.totals.requests, ws2.totals.modelCalls, ws2.totals.creditsNano]).toEqual([1, 1, 500_000_000]);
  });

  it('the daily series for the chart, per day and model', () => {
    expect(usage(fx.db, q({ window: '7d' }), NOW).daily).toEqual([
      { day: '2026-11-29', model: 'gpt-4.1', credits: 1.234567898, tokensIn: 22_000, tokensOut: 300, modelCalls: 2, estimated: false },
      { day: '2026-12-01', model: 'gpt-4o-mini', credits: 0, tokensIn: 500, tokensOut: 20, modelCalls: 1, estimated: false },
    ]);
  });

  it('one number everywhere: the sessions list and the session header show the same credits as usage by repository', () => {
    const list = listSessions(fx.db, { window: 'all', children: '0', limit: 100 }, NOW);
    expect(Object.fromEntries(list.sessions.map((s) => [s.id, s.credits]))).toEqual({ [S1]: 1.234567898, [S2]: 0.5 });
    expect(getSessionDetail(fx.db, S1)!.credits).toBe(1.234567898);
  });
});

// The acceptance check: `chronoscope usage --window all --json` on a generated corpus with credits equals a
// naive sum over the files (split on '\n', JSON.parse, keep llm_request), which is what jq computes.
describe('chronoscope usage on a generated corpus', () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-usage-'));
    await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 17, targetBytes: 3 * 1024 * 1024 });
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function naiveSums(root: string) {
    const sums = { modelCalls: 0, tokensIn: 0, tokensOut: 0, tokensCached: 0, creditsNano: 0, callsWithoutCredits: 0 };
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.jsonl')) {
          const text = fs.readFileSync(p, 'utf8');
          const complete = text.slice(0, text.lastIndexOf('\n') + 1);
          for (const l of complete.split('\n')) {
            let o: { type?: unknown; attrs?: Record<string, unknown> };
            try {
              o = JSON.parse(l) as typeof o;
            } catch {
              continue;
            }
            if (!o || o.type !== 'llm_request') continue;
            const a = o.attrs ?? {};
            const n = (v: unknown) => (typeof v === 'number' ? v : 0);
            sums.modelCalls++;
            sums.tokensIn += n(a.inputTokens);
            sums.tokensOut += n(a.outputTokens);
            sums.tokensCached += n(a.cachedTokens);
            if (typeof a.copilotUsageNanoAiu === 'number') sums.creditsNano += a.copilotUsageNanoAiu;
            else sums.callsWithoutCredits++;
          }
        }
      }
    };
    walk(root);
    return sums;
  }

  it('--json totals equal the sums over the files', async () => {
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
    let code: number;
    try {
      code = await runUsage(parseOptions(['usage', '--window', 'all', '--json', '--db', path.join(dir, 'i.db'), '--logs', path.join(dir, 'corpus')]));
    } finally {
      spy.mockRestore();
    }
    expect(code).toBe(0);
    const r = JSON.parse(out) as UsageResponse;
    const want = naiveSums(path.join(dir, 'corpus'));
    expect(want.creditsNano).toBeGreaterThan(0);
    expect(want.callsWithoutCredits).toBeGreaterThan(0);
    expect({
      modelCalls: r.totals.modelCalls,
      tokensIn: r.totals.tokensIn,
      tokensOut: r.totals.tokensOut,
      tokensCached: r.totals.tokensCached,
      creditsNano: r.totals.creditsNano,
      callsWithoutCredits: r.totals.callsWithoutCredits,
    }).toEqual(want);
    expect(Math.abs(r.totals.credits - want.creditsNano / 1e9)).toBeLessThan(1e-9);
  }, 120_000);
});

describe('Copilot CLI sessions: shutdown totals split over calls, marked estimated', () => {
  it('splits each model’s input, cache and credits over its calls by output tokens; a session without shutdown adds only output tokens', async () => {
    const { cliTree } = await import('../ingest/cli/cli-fixture');
    const cli = await fixtureDb({}, { cli: cliTree() });
    try {
      const r = usage(cli.db, q({ window: 'all', by: 'model' }), NOW);
      // MAIN: sonnet 9,000 in / 4,000 cached / 2.0 credits over its calls (120 and 40 output tokens), haiku 1,000 /
      // 500 / 0.3 over its one call; CRASHED has no shutdown: 55 output tokens, nothing else.
      expect(r.totals).toMatchObject({
        modelCalls: 5,
        tokensIn: 10_000,
        tokensCached: 4500,
        tokensOut: 230,
        creditsNano: 2_300_000_000,
        creditsEstimated: 2.3,
        tokensInEstimated: 10_000,
        tokensCachedEstimated: 4500,
        estimated: true,
        callsWithoutCredits: 2,
        sessionsWithoutUsage: 1,
      });
      const row = (k: string) => r.rows.find((x) => x.key === k);
      expect(row('claude-sonnet-4.5')).toMatchObject({ modelCalls: 2, tokensIn: 9000, tokensCached: 4000, creditsNano: 2_000_000_000, estimated: true });
      expect(row('claude-haiku-4.5')).toMatchObject({ modelCalls: 1, tokensIn: 1000, creditsNano: 300_000_000, estimated: true });
      expect(row('gpt-5')).toMatchObject({ modelCalls: 2, tokensIn: 0, tokensOut: 55, creditsNano: 0, estimated: false, callsWithoutCredits: 2 });
      // by day: the sonnet calls' shares (3/4 and 1/4 of 9,000) land on their day
      const day = usage(cli.db, q({ window: 'all', by: 'day' }), NOW);
      expect(day.rows.map((x) => ({ key: x.key, tokensIn: x.tokensIn, estimated: x.estimated }))).toEqual([{ key: '2026-11-30', tokensIn: 10_000, estimated: true }]);
      expect(day.daily.find((d) => d.model === 'claude-sonnet-4.5')).toMatchObject({ tokensIn: 9000, credits: 2, estimated: true });
    } finally {
      cli.cleanup();
    }
  });

  it("VS Code's agentHostUsage side file gives each call its own usage, exact, even without a shutdown", async () => {
    const { cliTree, CRASHED } = await import('../ingest/cli/cli-fixture');
    const cli = await fixtureDb({}, { cli: cliTree() });
    try {
      expect(getSessionDetail(cli.db, CRASHED)).toMatchObject({ usageComplete: false, tokensIn: 0 });
      // written by VS Code later, in another root: the session is refreshed when it arrives
      const dir = path.join(cli.root, 'Code', 'User', 'agentHostUsage');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, `${CRASHED}.jsonl`),
        JSON.stringify({ turnId: '0', model: 'gpt-5', inputTokens: 800, outputTokens: 30, cacheReadTokens: 100, totalNanoAiu: 100_000_000, ts: NOW }) +
          '\n' +
          JSON.stringify({ turnId: '1', model: 'gpt-5', inputTokens: 1200, outputTokens: 25, cacheReadTokens: 600, totalNanoAiu: 250_000_000, ts: NOW }) +
          '\n',
      );
      await cli.reindex();
      expect(getSessionDetail(cli.db, CRASHED)).toMatchObject({ usageComplete: true, tokensIn: 2000, tokensOut: 55, credits: 0.25 });
      const r = usage(cli.db, q({ window: 'all', by: 'model' }), NOW);
      expect(r.rows.find((x) => x.key === 'gpt-5')).toMatchObject({ modelCalls: 2, tokensIn: 2000, tokensCached: 700, creditsNano: 250_000_000, estimated: false, callsWithoutCredits: 0 });
      // MAIN still has only its shutdown: its part stays estimated
      expect(r.totals).toMatchObject({ tokensIn: 12_000, tokensInEstimated: 10_000, estimated: true, sessionsWithoutUsage: 0, callsWithoutCredits: 0 });
    } finally {
      cli.cleanup();
    }
  });
});
