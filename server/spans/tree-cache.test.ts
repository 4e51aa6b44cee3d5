import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordStatements } from '../test-support/record-statements';
import { buildTimings, cachedTreeEvents, dropTrees, sessionTree, treeLoad } from './tree-cache';

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
      expect(first?.tree.rows.length).toBe(2);
      let again: ReturnType<typeof sessionTree> = null;
      const reads = recordStatements(read, () => {
        again = sessionTree(read, S);
      });
      expect(again).toBe(first);
      // only the change check (two pragma-like reads), no scope or stamp queries over events
      expect(reads.filter((r) => /\bevents\b|\bsessions\b/.test(r.sql))).toEqual([]);

      fs.appendFileSync(path.join(fx.logsDir(), S, 'main.jsonl'), ev(1200, 'tool_call', 't2', 'u1'));
      await fx.reindex(); // the fixture's write connection, not `read`
      const grown = sessionTree(read, S);
      expect(buildTimings.incremental).toBe(1); // the rows loaded before, then only the new one
      expect(grown?.tree.rows.toArray().map((e) => e.spanId)).toEqual(['u1', 't1', 't2']);
      const fresh = openReadDb(fx.dbPath);
      try {
        expect(grown?.tree.rows.toArray()).toEqual(sessionTree(fresh, S)?.tree.rows.toArray());
        expect(Array.from(grown?.tree.order ?? [])).toEqual([0, 1, 2]);
      } finally {
        fresh.close();
      }
    } finally {
      read.close();
    }
  });

  it('dropTrees forgets the kept trees: the next request builds its tree again, the same', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: ev(1000, 'user_message', 'u1') + ev(1100, 'tool_call', 't1', 'u1') + ev(1200, 'tool_call', 't2', 't1') });
    const read = openReadDb(fx.dbPath);
    try {
      const kept = sessionTree(read, S);
      expect(cachedTreeEvents(read)).toBe(3);
      expect(dropTrees(read)).toBe(3);
      expect([cachedTreeEvents(read), dropTrees(read)]).toEqual([0, 0]);
      const again = sessionTree(read, S);
      expect(again).not.toBe(kept);
      expect(again?.tree.rows.toArray()).toEqual(kept?.tree.rows.toArray());
      expect(again?.version).toBe(kept?.version);
    } finally {
      read.close();
    }
  });

  it('reads ids side by side a range at a time without collecting, and ids spread among other sessions by session, collecting after each read', async () => {
    const T = 'bbbbbbbb-2222-4222-8222-222222222222';
    const other = Array.from({ length: 30 }, (_, i) => line({ ts: 5000 + i, dur: 5, sid: T, type: 'tool_call', name: 'x', spanId: `o${i}`, status: 'ok', attrs: {} })).join('');
    fx = await fixtureDb({ [`${S}/main.jsonl`]: Array.from({ length: 6 }, (_, i) => ev(1000 + i, 'tool_call', `t${i}`)).join('') });
    const saved = { ...treeLoad };
    let collections = 0;
    try {
      treeLoad.collect = () => collections++;
      Object.assign(treeLoad, { rangeRows: 4, chunk: 5 });
      // six ids side by side: two range reads, then the built tree (6 events > chunk) collected once
      expect(sessionTree(fx.db, S)?.tree.rows.toArray().map((e) => e.spanId)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
      expect(collections).toBe(1);

      // another session's 30 lines, then six more of this one's: ids 1–6, then 37–42 (each indexed on its own, so in that order)
      fs.mkdirSync(path.join(fx.logsDir(), T));
      fs.writeFileSync(path.join(fx.logsDir(), T, 'main.jsonl'), other);
      await fx.reindex();
      fs.appendFileSync(path.join(fx.logsDir(), S, 'main.jsonl'), Array.from({ length: 6 }, (_, i) => ev(2000 + i, 'tool_call', `u${i}`)).join(''));
      await fx.reindex();
      expect(fx.db.prepare('SELECT e.id FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? ORDER BY e.id').pluck().all(S)).toEqual([1, 2, 3, 4, 5, 6, 37, 38, 39, 40, 41, 42]);
      const spanIds = ['t0', 't1', 't2', 't3', 't4', 't5', 'u0', 'u1', 'u2', 'u3', 'u4', 'u5'];
      for (const [maxRangeWalk, expected] of [
        // 1–4 by range; 5, 6, 37, 38 walk 34 rows for 4 (over 4 a row): by session, five ids (5, 6, 37–39), collected;
        // 40–42 by range; then the build
        [4, 1 + 1],
        // every read by session, five ids at a time (5, 5, 2): the two larger than a range read collected, and the build
        [0, 2 + 1],
        // every read by range: only the build
        [Number.POSITIVE_INFINITY, 1],
      ] as const) {
        collections = 0;
        treeLoad.maxRangeWalk = maxRangeWalk;
        const conn = openReadDb(fx.dbPath); // a connection of its own: no tree cached
        try {
          expect(sessionTree(conn, S)?.tree.rows.toArray().map((e) => e.spanId)).toEqual(spanIds);
        } finally {
          conn.close();
        }
        expect(collections, `maxRangeWalk ${maxRangeWalk}`).toBe(expected);
      }

      collections = 0;
      Object.assign(treeLoad, saved, { collect: () => collections++ });
      const conn = openReadDb(fx.dbPath);
      try {
        expect(sessionTree(conn, S)?.tree.rows.length).toBe(12); // one read, nothing to collect
      } finally {
        conn.close();
      }
      expect(collections).toBe(0);

      // the same twelve ids read by session, as a small family spread among other rows is: one small read, no collection
      collections = 0;
      treeLoad.maxRangeWalk = 1;
      const spread = openReadDb(fx.dbPath);
      try {
        expect(sessionTree(spread, S)?.tree.rows.toArray().map((e) => e.spanId)).toEqual(spanIds);
      } finally {
        spread.close();
      }
      expect(collections).toBe(0);
    } finally {
      Object.assign(treeLoad, saved);
    }
  });

  it('sees a change made on its own connection (the CLI and tests index and read on one)', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: ev(1000, 'user_message', 'u1') });
    expect(sessionTree(fx.db, S)?.tree.rows.length).toBe(1);
    fs.appendFileSync(path.join(fx.logsDir(), S, 'main.jsonl'), ev(1100, 'tool_call', 't1', 'u1'));
    await fx.reindex();
    expect(sessionTree(fx.db, S)?.tree.rows.length).toBe(2);
  });

  it('keeps trees while their events together stay within the bound, the one just asked for always', async () => {
    const T = 'bbbbbbbb-2222-4222-8222-222222222222';
    const U = 'cccccccc-3333-4333-8333-333333333333';
    const of = (sid: string, n: number) =>
      Array.from({ length: n }, (_, i) => line({ ts: 1000 + i, dur: 5, sid, type: 'tool_call', name: 'tool_call', spanId: `t${i + 1}`, status: 'ok', attrs: {} })).join('');
    fx = await fixtureDb({ [`${S}/main.jsonl`]: of(S, 2), [`${T}/main.jsonl`]: of(T, 2), [`${U}/main.jsonl`]: of(U, 5) });
    const read = openReadDb(fx.dbPath);
    try {
      const s = sessionTree(read, S, 4);
      const t = sessionTree(read, T, 4);
      expect(sessionTree(read, S, 4)).toBe(s); // 2 + 2 events: both kept
      expect(sessionTree(read, T, 4)).toBe(t);
      const u = sessionTree(read, U, 4); // 5 events alone pass the bound: it stays, the others go
      expect(u?.tree.rows.length).toBe(5);
      expect(sessionTree(read, U, 4)).toBe(u);
      expect(sessionTree(read, S, 4)).not.toBe(s);
    } finally {
      read.close();
    }
  });
});
