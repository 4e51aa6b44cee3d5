import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureDb } from '../test-support/fixture-db';
import { SQL_EXAMPLES } from './examples';
import { openConsoleDb, runConsoleQuery } from './run-console-query';
import { SQL_FIXTURE_SESSION, sqlFixtureDb } from './sql-fixture';

// Every starting point the console offers runs, through the whole guard, and finds the fixture session.
let fx: FixtureDb;
let db: ReturnType<typeof openConsoleDb>;
beforeAll(async () => {
  fx = await sqlFixtureDb();
  db = openConsoleDb(fx.dbPath);
});
afterAll(() => {
  db.close();
  fx.cleanup();
});

describe('SQL console examples (FORMAT §5 documented queries and Chronoscope recipes)', () => {
  it('has the documented Chronicle queries among them', () => {
    const all = SQL_EXAMPLES.map((e) => e.sql).join('\n');
    expect(all).toMatch(/search_index MATCH/);
    expect(all).toMatch(/file_path LIKE/);
    expect(all).toMatch(/ref_value LIKE/);
    expect(SQL_EXAMPLES.map((e) => e.title)).toEqual(expect.arrayContaining(['Standup: the last 24 hours', 'Sessions by repository']));
  });

  for (const example of SQL_EXAMPLES) {
    it(`runs: ${example.title}`, () => {
      const r = runConsoleQuery(db, example.sql);
      expect(r.columns.length).toBeGreaterThan(0);
      expect(r.rows.length, 'finds the fixture session').toBeGreaterThan(0);
      expect(r.truncated).toBe(false);
      const idColumn = r.columns.findIndex((c) => c === 'id' || c === 'session_id');
      if (idColumn !== -1) expect(r.rows.map((row) => row[idColumn])).toContain(SQL_FIXTURE_SESSION);
    });
  }
});
