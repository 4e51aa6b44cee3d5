import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { LineageForestQuery, LineageForestResponse, LineageTraceResponse, type LineageTreeNode } from '../../shared/api';
import type { AppContext } from '../app-context';
import { handleError } from '../http/errors';
import { lineageRoutes } from '../routes/lineage';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordStatements } from '../test-support/record-statements';
import { lineageForest } from './forest';
import { traceLineage } from './lineage-db';
import { lineageFiles } from './lineage-fixture';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const ALL = { depth: 50, limit: 1000 };
const shape = (nodes: LineageTreeNode[]): string => nodes.map((n) => (n.descendants.length ? `${n.id}(${shape(n.descendants)})` : n.id)).join(' ');

function api(f: FixtureDb) {
  const app = new Hono().route('/api', lineageRoutes({ db: f.db } as AppContext));
  app.onError(handleError);
  return (p: string) => app.request(p);
}

const start = (sid: string, ts: number, attrs: object = {}) =>
  line({ v: 1, ts, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs });
const msg = (sid: string, ts: number) => line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `u-${sid}`, status: 'ok', attrs: { content: 'hi' } });

describe('lineage nodes say which product wrote each session', () => {
  it('sessionSource is the session row\'s source in the trace and the forest', async () => {
    fx = await fixtureDb(lineageFiles());
    // C1 stands in for a CLI session until the CLI ingest writes them: the node reads only the column
    fx.db.prepare(`UPDATE sessions SET source = 'cli' WHERE id = 'C1'`).run();
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'C2', ALL));
    expect(t.ancestors.map((a) => [a.id, a.sessionSource])).toEqual([
      ['C1', 'cli'],
      ['P', 'vscode'],
    ]);
    expect(t.target.sessionSource).toBe('vscode');
    const flat = (nodes: LineageTreeNode[]): LineageTreeNode[] => nodes.flatMap((n) => [n, ...flat(n.descendants)]);
    const forest = LineageForestResponse.parse(lineageForest(fx.db, LineageForestQuery.parse({ window: 'all' })));
    const nodes = forest.trees.flatMap((tr) => flat([tr.root]));
    expect(nodes.filter((n) => n.sessionSource === 'cli').map((n) => n.id)).toEqual(['C1']);
  });
});

describe('traceLineage on an indexed family (lineage-fixture.ts)', () => {
  it('a nested subagent: ancestors nearest first, up to the complete root', async () => {
    fx = await fixtureDb(lineageFiles());
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'C2', ALL));
    expect(t.ancestors.map((a) => a.id)).toEqual(['C1', 'P']);
    expect(t.complete && t.root.id).toBe('P');
    expect(t.target).toMatchObject({ label: 'runSubagent-Deep', kind: 'child', source: 'tool_span', toolSpanId: 'Y2', toolName: 'runSubagent', parentId: 'C1' });
  });

  it('the descendants of the top session: each child once, under the session that started it, by creation time', async () => {
    fx = await fixtureDb(lineageFiles());
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'P', ALL));
    expect(shape(t.descendants)).toBe('T C1(C2) F(K)');
    expect(t.descendantCount).toBe(5);
    const c1 = t.descendants[1];
    expect(c1).toMatchObject({ eventCount: 5, errorCount: 1, childCount: 1, hasLog: true, durationMs: 2005 + 7900 - 2000 }); // its subagent span ends last
    expect(t.descendants[2]).toMatchObject({ kind: 'fork' });
    expect(t.descendants[2].descendants[0]).toMatchObject({ id: 'K', kind: 'continuation' });
  });

  it('reads the descendants one level at a time, not one query per session', async () => {
    fx = await fixtureDb(lineageFiles());
    const db = fx.db;
    const reads = recordStatements(db, () => traceLineage(db, 'P', ALL));
    // the target, then one read per level: P's children (T C1 F), theirs (C2 K), theirs (none)
    expect(reads.map((r) => (r.sql.includes('json_each') ? 'level' : 'session'))).toEqual(['session', 'level', 'level', 'level']);
  });

  it('a fork whose parent is not in the index: complete false with that parent', async () => {
    fx = await fixtureDb(lineageFiles());
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'G', ALL));
    expect(t.complete).toBe(false);
    expect(!t.complete && t.unresolvedParentId).toBe('M');
    expect(t.ancestors).toEqual([]);
  });

  it('a child whose parent folder was deleted after indexing keeps its lineage, marked log deleted', async () => {
    fx = await fixtureDb(lineageFiles());
    fs.rmSync(path.join(fx.logsDir(), 'P'), { recursive: true });
    await fx.reindex();
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'C2', ALL));
    expect(t.complete).toBe(true);
    expect(t.ancestors.map((a) => [a.id, a.logDeleted])).toEqual([
      ['C1', true],
      ['P', true],
    ]);
  });

  it('a child log whose folder session was never indexed (main.jsonl gone before we saw it): unresolved at the folder', async () => {
    fx = await fixtureDb({ 'X/runSubagent-Explore-Y.jsonl': start('Y', 5, { parentSessionId: 'X', label: 'runSubagent-Explore' }) + msg('Y', 6) });
    const t = LineageTraceResponse.parse(traceLineage(fx.db, 'Y', ALL));
    expect(!t.complete && t.unresolvedParentId).toBe('X');
    expect(t.target.label).toBe('runSubagent-Explore');
  });
});

describe('GET /api/lineage/:id', () => {
  it('answers the trace, 404 for an unknown session, 400 for a bad bound', async () => {
    fx = await fixtureDb(lineageFiles());
    const get = api(fx);
    const ok = await get('/api/lineage/P?depth=1&limit=2');
    expect(ok.status).toBe(200);
    const t = LineageTraceResponse.parse(await ok.json());
    expect(shape(t.descendants)).toBe('T C1');
    expect(t.truncated).toEqual({ byDepth: true, byLimit: true, hiddenChildren: 2 });
    const missing = await get('/api/lineage/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const bad = await get('/api/lineage/P?depth=-1');
    expect(bad.status).toBe(400);
  });

  it('a cycle in the parent links is a 409 naming the sessions in it', async () => {
    // A's session_start names B and B's names A (hand-edited or corrupt logs)
    fx = await fixtureDb({ 'A/main.jsonl': start('A', 1, { parentSessionId: 'B' }) + msg('A', 2), 'B/main.jsonl': start('B', 3, { parentSessionId: 'A' }) + msg('B', 4) });
    const r = await api(fx)('/api/lineage/A');
    expect(r.status).toBe(409);
    const body = (await r.json()) as { error: { code: string; message: string; details: { cycle: string[] } } };
    expect(body.error.code).toBe('lineage_cycle');
    expect(body.error.details.cycle).toEqual(['A', 'B']);
    expect(body.error.message).toContain('A → B → A');
    // the forest still answers, cutting the loop at its smallest id
    const forest = LineageForestResponse.parse(await (await api(fx)('/api/lineage?window=all')).json());
    expect(forest.trees.map((t) => [t.root.id, shape(t.root.descendants), t.cycle])).toEqual([['A', 'B', ['A', 'B']]]);
  });
});

describe('lineageForest', () => {
  it('roots with their children, newest activity first, with what branched and where the errors are', async () => {
    fx = await fixtureDb(lineageFiles());
    const f = LineageForestResponse.parse(lineageForest(fx.db, { window: 'all', limit: 50, branching: '0' }));
    expect(f.trees.map((t) => [t.root.id, shape(t.root.descendants), t.unresolvedParentId])).toEqual([
      ['G', '', 'M'],
      ['P', 'T C1(C2) F(K)', null],
    ]);
    expect(f.trees[1].stats).toMatchObject({ sessions: 6, subagents: 2, helpers: 1, forks: 2, errors: 1, sessionsWithErrors: 1, depth: 2 });
    expect(f.total).toBe(2);
    const branching = lineageForest(fx.db, { window: 'all', limit: 50, branching: '1' });
    expect(branching.trees.map((t) => t.root.id)).toEqual(['P']);
    const paged = lineageForest(fx.db, { window: 'all', limit: 1, branching: '0' });
    expect(paged.trees.map((t) => t.root.id)).toEqual(['G']);
    const next = lineageForest(fx.db, { window: 'all', limit: 1, branching: '0', cursor: paged.nextCursor! });
    expect(next.trees.map((t) => t.root.id)).toEqual(['P']);
    expect(next.nextCursor).toBeNull();
  });

  it('narrows by repository and window, still drawing the whole tree of a session that matches', async () => {
    fx = await fixtureDb(lineageFiles());
    expect(lineageForest(fx.db, { repo: 'elsewhere', window: 'all', limit: 50, branching: '0' }).trees).toEqual([]);
    // the fixture's times are in 2026-03; "now" just after K's last event keeps only the trees active in that day
    const now = 1775000000000 + 40_000 + 3600_000;
    const day = lineageForest(fx.db, { window: '24h', limit: 50, branching: '0' }, now);
    expect(day.trees.map((t) => t.root.id)).toEqual(['G', 'P']);
    const later = lineageForest(fx.db, { window: '24h', limit: 50, branching: '0' }, now + 2 * 86400_000);
    expect(later.trees).toEqual([]);
  });
});
