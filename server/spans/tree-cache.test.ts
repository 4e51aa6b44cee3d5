import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordStatements } from '../test-support/record-statements';
import { sessionTree } from './tree-cache';

const S = 'aaaaaaaa-1111-4111-8111-111111111111';
const ev = (ts: number, type: string, spanId: string, parentSpanId?: string) => line({ ts, dur: 5, sid: S, type, name: type, spanId, parentSpanId, status: 'ok', attrs: {} });

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('sessionTree cache', () => {
  it('answers from the cache without a query while nothing was committed, and sees a commit by another connection', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: ev(1000, 'user_message', 'u1') + ev(1100, 'tool_call', 't1', 'u1') });
    const read = openReadDb(fx.dbPath);
    try {
      const first = sessionTree(read, S);
      expect(first?.entries.length).toBe(2);
      let again: ReturnType<typeof sessionTree> = null;
      const reads = recordStatements(read, () => {
        again = sessionTree(read, S);
      });
      expect(again).toBe(first);
      // only the change check (two pragma-like reads), no scope or stamp queries over events
      expect(reads.filter((r) => /\bevents\b|\bsessions\b/.test(r.sql))).toEqual([]);

      fs.appendFileSync(path.join(fx.logsDir(), S, 'main.jsonl'), ev(1200, 'tool_call', 't2', 'u1'));
      await fx.reindex(); // the fixture's write connection, not `read`
      expect(sessionTree(read, S)?.entries.map((e) => e.spanId)).toEqual(['u1', 't1', 't2']);
    } finally {
      read.close();
    }
  });

  it('sees a change made on its own connection (the CLI and tests index and read on one)', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: ev(1000, 'user_message', 'u1') });
    expect(sessionTree(fx.db, S)?.entries.length).toBe(1);
    fs.appendFileSync(path.join(fx.logsDir(), S, 'main.jsonl'), ev(1100, 'tool_call', 't1', 'u1'));
    await fx.reindex();
    expect(sessionTree(fx.db, S)?.entries.length).toBe(2);
  });
});
