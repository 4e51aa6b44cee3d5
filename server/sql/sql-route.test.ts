import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlResult, SqlSchemaResponse } from '../../shared/api';
import { rawRequest, startTestServer, type TestServer } from '../http/test-server';
import { SQL_FIXTURE_SESSION, sqlFixtureFiles } from './sql-fixture';

// POST /api/sql and GET /api/sql/schema on the real server (startServer, port 0), over real HTTP.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ logs: sqlFixtureFiles() });
});
afterAll(async () => t.close());

const post = (sql: unknown, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  rawRequest(t.port, { method: 'POST', path: '/api/sql', headers, body: JSON.stringify({ sql }) });

/** Polls /api/health every 50 ms while `work` runs; returns the slowest answer. */
async function slowestHealthDuring(work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let worst = 0;
  while (!done) {
    const started = Date.now();
    const r = await rawRequest(t.port, { path: '/api/health' });
    expect(r.status).toBe(200);
    worst = Math.max(worst, Date.now() - started);
    await new Promise((res) => setTimeout(res, 50));
  }
  return worst;
}

describe('POST /api/sql', () => {
  it('answers { columns, rows, truncated, elapsedMs }', async () => {
    const r = await post(`SELECT id, repository FROM sessions WHERE id = '${SQL_FIXTURE_SESSION}'`);
    expect(r.status).toBe(200);
    const body = SqlResult.parse(JSON.parse(r.body));
    expect(body.columns).toEqual(['id', 'repository']);
    expect(body.rows[0][0]).toBe(SQL_FIXTURE_SESSION);
    expect(body.truncated).toBe(false);
  });

  it('refuses with the one error body, a clear message and the guard that refused', async () => {
    const cases: [string, string][] = [
      ['SELECT 1; DROP TABLE sessions', 'multiple_statements'],
      ["ATTACH DATABASE '/tmp/x.db' AS x", 'forbidden_word'],
      ['PRAGMA writable_schema = ON', 'forbidden_word'],
      ["VACUUM INTO '/tmp/x.db'", 'forbidden_word'],
      ["SELECT load_extension('x')", 'forbidden_word'],
      ['DELETE FROM sessions', 'not_select'],
    ];
    for (const [sql, reason] of cases) {
      const r = await post(sql);
      expect(r.status, sql).toBe(400);
      const { error } = JSON.parse(r.body);
      expect(error.code).toBe('sql_refused');
      expect(error.details.reason).toBe(reason);
      expect(error.message.length).toBeGreaterThan(10);
    }
    const syntax = await post('SELECT FROM WHERE');
    expect(syntax.status).toBe(400);
    expect(JSON.parse(syntax.body).error.code).toBe('sql_error');
  });

  it('validates the body: missing or non-string sql, not JSON, wrong content type', async () => {
    for (const body of [{}, { sql: 42 }, { sql: '' }]) {
      const r = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.parse(r.body).error.code).toBe('bad_request');
    }
    const broken = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'application/json' }, body: '{"sql": ' });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body).error).toBeDefined();
    // A form post (what a foreign page can send without a preflight) is not JSON: refused before any SQL runs.
    const form = await rawRequest(t.port, { method: 'POST', path: '/api/sql', headers: { 'Content-Type': 'text/plain' }, body: '{"sql":"SELECT 1"}' });
    expect(form.status).toBe(400);
    expect(JSON.parse(form.body).error).toBeDefined();
  });

  it('stops a runaway recursive CTE at the time limit while the server keeps answering other requests', async () => {
    const started = Date.now();
    const runaway = post('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r');
    const worst = await slowestHealthDuring(runaway);
    const r = await runaway;
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error.code).toBe('sql_timeout');
    expect(Date.now() - started).toBeLessThan(9000);
    expect(worst, 'slowest /api/health answer during the runaway query (ms)').toBeLessThan(500);
    // and the console works again at once
    const next = await post('SELECT 1 AS one');
    expect(next.status).toBe(200);
  });

  it('a giant result is bounded (rows and size) and does not starve other requests', async () => {
    const huge = post("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n, printf('%.*c', 20000, 'x') AS blob FROM r");
    const worst = await slowestHealthDuring(huge);
    const r = await huge;
    expect(r.status).toBe(200);
    const body = SqlResult.parse(JSON.parse(r.body));
    expect(body.truncated).toBe(true);
    expect(r.body.length).toBeLessThan(6_000_000);
    expect(worst, 'slowest /api/health answer during the giant query (ms)').toBeLessThan(1000);
  });
});

describe('GET /api/sql/schema', () => {
  it("lists Chronicle's tables first with their columns, leaves out FTS shadow tables, and offers the examples", async () => {
    const r = await rawRequest(t.port, { path: '/api/sql/schema' });
    expect(r.status).toBe(200);
    const body = SqlSchemaResponse.parse(JSON.parse(r.body));
    const names = body.tables.map((x) => x.name);
    expect(names.slice(0, 6)).toEqual(['sessions', 'turns', 'checkpoints', 'session_files', 'session_refs', 'search_index']);
    expect(names).toContain('events');
    expect(names.some((n) => /_(data|idx|docsize|config|content)$/.test(n))).toBe(false);
    const sessions = body.tables[0];
    expect(sessions.chronicle).toBe(true);
    expect(sessions.columns.find((c) => c.name === 'id')).toMatchObject({ type: 'TEXT', pk: true });
    expect(body.tables.find((x) => x.name === 'search_index')?.type).toBe('virtual');
    expect(body.examples.length).toBeGreaterThan(5);
    expect(body.limits.maxRows).toBe(1000);
  });
});
