import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureDb } from '../test-support/fixture-db';
import { SqlQueryError } from './sql-error';
import { liveConsoleProcesses, SqlRunner } from './sql-runner';
import { sqlFixtureDb } from './sql-fixture';

// A runaway statement: the count never ends, and no row comes out to stop at the row cap.
const CTE_BOMB = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';

async function rejection(p: Promise<unknown>): Promise<SqlQueryError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof SqlQueryError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let fx: FixtureDb;
let runner: SqlRunner;
beforeAll(async () => {
  fx = await sqlFixtureDb();
  runner = new SqlRunner({ dbPath: fx.dbPath, timeoutMs: 1500, maxQueued: 2 });
});
afterAll(async () => {
  await runner.close();
  fx.cleanup();
});

describe('SqlRunner: console queries in a process of their own', () => {
  it('answers a query', async () => {
    const r = await runner.query("SELECT id FROM sessions WHERE id = 'sql-s1'");
    expect(r.rows).toEqual([['sql-s1']]);
  });

  it('refuses by the text layer without waiting for the process', async () => {
    const e = await rejection(runner.query('SELECT 1; DROP TABLE sessions'));
    expect(e.code).toBe('sql_refused');
    expect(e.reason).toBe('multiple_statements');
  });

  it('stops a runaway recursive CTE at the time limit by killing its process, while this thread stays responsive', async () => {
    const before = runner.pid!;
    expect(alive(before)).toBe(true);
    // The event loop of the caller (the server) keeps ticking during the runaway query.
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(Date.now()), 20);
    const started = Date.now();
    const e = await rejection(runner.query(CTE_BOMB));
    clearInterval(ticker);
    const took = Date.now() - started;
    expect(e.code).toBe('sql_timeout');
    expect(e.message).toMatch(/longer than 1.5 s/);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(4000);
    const gaps = ticks.slice(1).map((t, i) => t - ticks[i]);
    expect(Math.max(...gaps), 'no event-loop stall').toBeLessThan(250);
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(before), 'the runaway process is gone').toBe(false);
    expect(runner.killed).toBe(1);
    // A fresh process answers the next query.
    const next = await runner.query('SELECT 2 AS two');
    expect(next.rows).toEqual([[2]]);
    expect(runner.pid).not.toBe(before);
  });

  it('holds one process after a timeout, even when a query arrives while the replacement starts', async () => {
    await rejection(runner.query(CTE_BOMB));
    // the killed process has exited, its replacement is still starting: this query must wait for it
    await new Promise((r) => setTimeout(r, 100));
    const next = await runner.query('SELECT 3 AS three');
    expect(next.rows).toEqual([[3]]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(liveConsoleProcesses()).toBe(1);
  });

  it('queues behind a running query, and refuses (busy) beyond the queue bound', async () => {
    const slow = runner.query(CTE_BOMB).catch((e: SqlQueryError) => e);
    const q1 = runner.query('SELECT 1 AS a');
    const q2 = runner.query('SELECT 2 AS b');
    const refused = await rejection(runner.query('SELECT 3 AS c'));
    expect(refused.code).toBe('busy');
    expect(refused.status).toBe(503);
    expect(((await slow) as SqlQueryError).code).toBe('sql_timeout');
    expect((await q1).rows).toEqual([[1]]);
    expect((await q2).rows).toEqual([[2]]);
  });

  it('fails the running query (not the server) when its process dies, and recovers', async () => {
    const pending = runner.query(CTE_BOMB).catch((e: SqlQueryError) => e);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(runner.pid!, 'SIGKILL');
    const e = (await pending) as SqlQueryError;
    expect(e.code).toBe('sql_crashed');
    expect((await runner.query('SELECT 4 AS d')).rows).toEqual([[4]]);
  });

  it('stops a statement whose sort outgrows the memory cap, with a clear 400, and answers the next query', async () => {
    // Issue 14.5: an ORDER BY over a big join wrote 1.2 GB of temp files in 5 s. Three million rows of 80
    // characters sorted by them: far more than the cap (and not done within the time limit on disk).
    const capped = new SqlRunner({ dbPath: fx.dbPath, timeoutMs: 30_000, maxRssBytes: 192 * 2 ** 20 });
    try {
      const started = Date.now();
      const e = await rejection(capped.query('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r LIMIT 3000000) SELECT n, hex(randomblob(40)) AS h FROM r ORDER BY h'));
      expect(e.code).toBe('sql_too_big');
      expect(e.status).toBe(400);
      expect(e.message).toBe(
        'the query needed more than 192 MB of memory (sorting, grouping or DISTINCT over many rows keeps them all) and was stopped: add a WHERE or a LIMIT inside the subquery, or sort fewer columns',
      );
      expect(Date.now() - started).toBeLessThan(20_000);
      expect((await capped.query('SELECT 5 AS e')).rows).toEqual([[5]]);
    } finally {
      await capped.close();
    }
  }, 40_000);

  it('close() kills the process and refuses later queries', async () => {
    const r2 = new SqlRunner({ dbPath: fx.dbPath });
    await r2.query('SELECT 1');
    const pid = r2.pid!;
    await r2.close();
    expect(alive(pid)).toBe(false);
    expect((await rejection(r2.query('SELECT 1'))).code).toBe('busy');
  });
});
