import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionListQuery, type SessionSort } from '../../shared/api';
import { ApiError } from '../http/errors';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { planOf, recordStatements } from '../test-support/record-statements';
import { listSessions } from './list-sessions';

// The sessions list sorted on the server (it is paged): each sort key, both directions, NULLs (no credit data)
// last either way, and pages that put together give the unpaged order. Span ids restart at 1 in every session,
// as the real writer does.

const NOW = Date.UTC(2026, 11, 1, 12);
const H = 3_600_000;
const id = (n: number) => n.toString(16).padStart(16, '0');

interface Shape {
  start: number;
  durationMs: number;
  events: number;
  errors: number;
  tokens: [number, number] | null;
  nanoAiu: number | null;
}

/** `events` lines from `start` to `start + durationMs`: a request, an optional model call, tools (some failed). */
function sessionLog(sid: string, s: Shape): string {
  const out: string[] = [line({ ts: s.start, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: `work ${sid}` } })];
  let n = 1;
  if (s.tokens) {
    const attrs: Record<string, unknown> = { model: 'gpt-4.1', inputTokens: s.tokens[0], outputTokens: s.tokens[1] };
    if (s.nanoAiu !== null) attrs.copilotUsageNanoAiu = s.nanoAiu;
    out.push(line({ ts: s.start + 1, dur: 0, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(++n), parentSpanId: id(1), status: 'ok', attrs }));
  }
  let failed = 0;
  while (out.length < s.events) {
    const last = out.length === s.events - 1;
    const err = failed < s.errors;
    if (err) failed++;
    out.push(
      line({
        ts: last ? s.start + s.durationMs : s.start + 2 + out.length,
        dur: 0,
        sid,
        type: 'tool_call',
        name: 'read_file',
        spanId: id(++n),
        parentSpanId: id(1),
        status: err ? 'error' : 'ok',
        attrs: err ? { error: 'ENOENT' } : {},
      }),
    );
  }
  return out.join('');
}

const SESSIONS: Record<string, Shape> = {
  'aaaaaaaa-0000-4000-8000-00000000000a': { start: NOW - 1 * H, durationMs: 1000, events: 2, errors: 0, tokens: null, nanoAiu: null },
  'aaaaaaaa-0000-4000-8000-00000000000b': { start: NOW - 2 * H, durationMs: 50_000, events: 3, errors: 1, tokens: [500, 100], nanoAiu: 5_000_000_000 },
  'aaaaaaaa-0000-4000-8000-00000000000c': { start: NOW - 3 * H, durationMs: 5000, events: 4, errors: 2, tokens: [1900, 100], nanoAiu: null },
  'aaaaaaaa-0000-4000-8000-00000000000d': { start: NOW - 4 * H, durationMs: 20_000, events: 5, errors: 3, tokens: [250, 50], nanoAiu: 1_000_000_000 },
};
const [A, B, C, D] = Object.keys(SESSIONS);

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb(Object.fromEntries(Object.entries(SESSIONS).map(([sid, s]) => [`${sid}/main.jsonl`, sessionLog(sid, s)])));
});
afterAll(() => fx.cleanup());

const list = (o: Record<string, string | number>) => listSessions(fx.db, SessionListQuery.parse(o), NOW);
const ids = (o: Record<string, string | number>) => list(o).sessions.map((s) => s.id);

/** Every page of the list, one session at a time, put together. */
function allPages(o: Record<string, string>): string[] {
  const out: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10; guard++) {
    const r = list({ ...o, limit: 1, ...(cursor ? { cursor } : {}) });
    out.push(...r.sessions.map((s) => s.id));
    if (!r.nextCursor) return out;
    cursor = r.nextCursor;
  }
  throw new Error('the cursor never ran out');
}

describe('listSessions sorted', () => {
  it('the fixture is what the sort keys read', () => {
    const byId = new Map(list({}).sessions.map((s) => [s.id, s]));
    expect([A, B, C, D].map((x) => byId.get(x)!.eventCount)).toEqual([2, 3, 4, 5]);
    expect([A, B, C, D].map((x) => byId.get(x)!.errorCount)).toEqual([0, 1, 2, 3]);
    expect([A, B, C, D].map((x) => byId.get(x)!.tokensIn + byId.get(x)!.tokensOut)).toEqual([0, 600, 2000, 300]);
    expect([A, B, C, D].map((x) => byId.get(x)!.credits)).toEqual([null, 5, null, 1]);
    expect([A, B, C, D].map((x) => byId.get(x)!.updatedAt! - byId.get(x)!.createdAt!)).toEqual([1000, 50_000, 5000, 20_000]);
  });

  it('orders by each key, largest first by default', () => {
    const expected: Record<SessionSort, string[]> = {
      updated: [A, B, C, D],
      duration: [B, D, C, A],
      events: [D, C, B, A],
      errors: [D, C, B, A],
      tokens: [C, B, D, A],
      credits: [B, D],
    };
    for (const [sort, order] of Object.entries(expected)) {
      expect(ids({ sort }).slice(0, order.length), sort).toEqual(order);
    }
    expect(ids({})).toEqual(ids({ sort: 'updated', dir: 'desc' }));
  });

  it('ascending reverses the order, but sessions without credit data stay last', () => {
    expect(ids({ sort: 'duration', dir: 'asc' })).toEqual([A, C, D, B]);
    const credits = ids({ sort: 'credits', dir: 'asc' });
    expect(credits.slice(0, 2)).toEqual([D, B]);
    expect(credits.slice(2).sort()).toEqual([A, C]);
    const desc = ids({ sort: 'credits', dir: 'desc' });
    expect(desc.slice(2).sort()).toEqual([A, C]);
  });

  it('pages put together give the unpaged order, for every key and direction; the total does not depend on the order', () => {
    for (const sort of SessionListQuery.shape.sort.unwrap().options) {
      for (const dir of ['asc', 'desc']) {
        expect(allPages({ sort, dir }), `${sort} ${dir}`).toEqual(ids({ sort, dir }));
        expect(list({ sort, dir, limit: 1 }).total).toBe(4);
      }
    }
  });

  // Sorted by events, each row's key was a subquery of a CTE over every family, which SQLite computed again for every
  // row: 19 s for the 510 sessions of the bench archive (53 ms now). The figures are computed once, then joined.
  it('sorted by a family figure, the figures are computed once for the list, not once a row', () => {
    for (const sort of ['events', 'errors'] as const) {
      const recorded = recordStatements(fx.db, () => listSessions(fx.db, { window: 'all', children: '0', limit: 2, sort }));
      const plan = planOf(fx.db, recorded.find((r) => r.sql.includes('family_figures'))!);
      // (the one correlated subquery left is each member's files, by index)
      expect([sort, plan.filter((p) => /family_figures|\bff\b/.test(p))]).toEqual([sort, ['MATERIALIZE family_figures', 'SEARCH ff USING AUTOMATIC COVERING INDEX (root=?) LEFT-JOIN']]);
    }
  });

  it('refuses a cursor issued for another order', () => {
    const cursor = list({ sort: 'events', limit: 1 }).nextCursor!;
    expect(() => list({ sort: 'errors', limit: 1, cursor })).toThrow(ApiError);
    expect(() => list({ sort: 'events', dir: 'asc', limit: 1, cursor })).toThrow(/another order/);
  });
});

describe('listSessions by source', () => {
  // Until the CLI ingest writes CLI sessions, two debug-log sessions stand in for them: the filter reads only the
  // column. The total is the filtered count, so the list and its "N sessions" agree.
  beforeAll(() => fx.db.prepare(`UPDATE sessions SET source = 'cli' WHERE id IN (?, ?)`).run(B, D));
  afterAll(() => fx.db.prepare(`UPDATE sessions SET source = 'vscode'`).run());

  it('keeps only the sessions of that source, with their total; no source keeps both', () => {
    expect({ ids: ids({ source: 'cli' }), total: list({ source: 'cli' }).total }).toEqual({ ids: [B, D], total: 2 });
    expect({ ids: ids({ source: 'vscode' }), total: list({ source: 'vscode' }).total }).toEqual({ ids: [A, C], total: 2 });
    expect(list({}).total).toBe(4);
  });

  it('pages a filtered list like the unfiltered one', () => {
    expect(allPages({ source: 'cli', sort: 'tokens' })).toEqual([B, D]);
  });

  it('refuses a source that is neither', () => {
    expect(SessionListQuery.safeParse({ source: 'jetbrains' }).success).toBe(false);
  });
});
