import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import fs from 'node:fs';
import path from 'node:path';
import { testContext } from '../test-support/test-app';
import { getHealth, RECENT_BAD_LINES, recentProblems } from './health';

// /api/health runs on every poll of the UI and the CLI: it must not read the archive line by line.
let fx: FixtureDb;
beforeAll(async () => {
  const ev = (n: number) => line({ ts: 1_700_000_000_000 + n, dur: 0, sid: 'h1', type: 'user_message', name: 'user_message', spanId: `000000000000000${n}`, status: 'ok', attrs: { content: `m${n}` } });
  fx = await fixtureDb({ 'h1/main.jsonl': ev(1) + 'garbage that is not JSON\n' + ev(2) + '{"truncated": \n' + ev(3) });
});
afterAll(() => fx.cleanup());

describe('recent problems in /api/health', () => {
  it('reads bad lines through their partial index, never a scan of every line', () => {
    const plan = (fx.db.prepare(`EXPLAIN QUERY PLAN ${RECENT_BAD_LINES}`).all(100) as { detail: string }[]).map((r) => r.detail);
    expect(plan.some((d) => /SCAN l\b(?! USING)/.test(d))).toBe(false);
    expect(plan.some((d) => /USING INDEX lines_problems/.test(d))).toBe(true);
  });

  it('lists them newest first with file, line number and offset', () => {
    const p = recentProblems(fx.db).map(({ lineNo, byteOffset, kind }) => ({ lineNo, byteOffset, kind }));
    const first = ev1Length();
    expect(p).toEqual([
      { lineNo: 4, byteOffset: first + 'garbage that is not JSON\n'.length + first, kind: 'bad_line' },
      { lineNo: 2, byteOffset: first, kind: 'bad_line' },
    ]);
  });
});

describe('what health reads from the database', () => {
  it('is read once per database state, and again as soon as anything was committed', async () => {
    const ctx = testContext(fx.db, fx.dbPath);
    const facts = () => {
      const h = getHealth(ctx);
      return { events: h.events, badLines: h.badLines, problems: h.problems.length };
    };
    const before = facts();
    expect(before).toEqual({ events: 3, badLines: 2, problems: 2 });
    expect(facts()).toEqual(before);
    fs.appendFileSync(path.join(fx.logsDir(), 'h1/main.jsonl'), 'more garbage\n' + line({ ts: 1_700_000_000_004, dur: 0, sid: 'h1', type: 'user_message', name: 'user_message', spanId: '0000000000000004', status: 'ok', attrs: { content: 'm4' } }));
    await fx.reindex();
    expect(facts()).toEqual({ events: 4, badLines: 3, problems: 3 });
  });
});

function ev1Length(): number {
  return line({ ts: 1_700_000_000_001, dur: 0, sid: 'h1', type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'm1' } }).length;
}
