import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../config';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { readIndex } from './open-index';

// A query command reads one snapshot: `chronoscope slow` prints the calls and the counts beside them while a
// running server may be committing to the same index.

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({ 's1/main.jsonl': line({ ts: 1775000000000, dur: 5, sid: 's1', type: 'tool_call', name: 'read_file', spanId: '0000000000000001', status: 'ok', attrs: {} }) });
});
afterAll(() => fx.cleanup());

describe('readIndex', () => {
  it('runs the read in one read-only snapshot while the writer commits, then closes the connection', async () => {
    let seen: Database.Database | null = null;
    const counts = await readIndex(parseOptions(['slow', '--db', fx.dbPath, '--no-index']), (db) => {
      seen = db;
      const n = () => db.prepare('SELECT count(*) FROM sessions').pluck().get() as number;
      const first = n();
      fx.db.prepare("INSERT INTO sessions (id, num) VALUES ('late', 1000)").run();
      return [db.readonly, db.inTransaction, first, n()];
    });
    expect(counts).toEqual([true, true, 1, 1]);
    expect(seen!.open).toBe(false);
    expect(fx.db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(2);
  });
});
