import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { segmentsNewestFirst } from './id-order';
import { inferBackfillRuns } from './infer-backfill-runs';
import { IngestStore } from '../ingest/store';
import { rebuildDerived } from './rebuild';
import { ensureSchema, getMeta, recreateDerived } from './schema';

// An archive written before backfill_runs: its first backfill's run is read back from its lines (whole sessions,
// newest first) so that search's first page reads its newest sessions first there too (server/db/id-order.ts).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();

/** Span ids as the writer gives them: a counter that starts again at 0000000000000001 in every session (FORMAT §10). */
function session(sid: string, at: number, lines: number, childOf?: string): string {
  return Array.from({ length: lines }, (_, i) =>
    line({ ts: at + i * 1000, dur: 0, sid, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { args: '{}', result: `step ${i}${childOf ? ` of ${childOf}` : ''}` } }),
  ).join('');
}

/** Writes a session's main log (and a child log beside it), dated as written. */
function write(fx: FixtureDb, sid: string, at: number, lines: number, child?: string): void {
  const dir = path.join(fx.logsDir(), sid);
  fs.mkdirSync(dir, { recursive: true });
  const main = path.join(dir, 'main.jsonl');
  fs.appendFileSync(main, session(sid, at, lines));
  const last = (at + lines * 1000) / 1000;
  fs.utimesSync(main, last, last);
  if (child) {
    const file = path.join(dir, `runSubagent-default-${child}.jsonl`);
    fs.writeFileSync(file, session(child, at + 10, 2, sid));
    fs.utimesSync(file, (at + 2010) / 1000, (at + 2010) / 1000);
  }
}

const recorded = (fx: FixtureDb) => fx.db.prepare('SELECT lo, hi FROM backfill_runs ORDER BY lo').all();
const SIDS = ['1a000000-0000-4000-8000-000000000001', '2b000000-0000-4000-8000-000000000002', '3c000000-0000-4000-8000-000000000003', '4d000000-0000-4000-8000-000000000004'];
const CHILD = '5e000000-0000-4000-8000-000000000005';

let fx: FixtureDb;
afterEach(() => fx?.cleanup());

/** Three sessions of 5, 3 and 4 lines, written 40, 20 and 3 days ago, backfilled: ids 1..12, the newest session first. */
async function threeBackfilled(): Promise<FixtureDb> {
  const made = await fixtureDb({});
  write(made, SIDS[0], NOW - 40 * DAY, 5);
  write(made, SIDS[1], NOW - 20 * DAY, 3);
  write(made, SIDS[2], NOW - 3 * DAY, 4);
  await made.reindex();
  return made;
}

describe("an earlier backfill's run, read back from the archive", () => {
  it('is the run the backfill recorded: whole sessions (a main log and its child log) newest first', async () => {
    fx = await fixtureDb({});
    write(fx, SIDS[0], NOW - 40 * DAY, 5);
    write(fx, SIDS[1], NOW - 20 * DAY, 3, CHILD);
    write(fx, SIDS[2], NOW - 3 * DAY, 4);
    write(fx, SIDS[3], NOW - 2 * HOUR, 2);
    await fx.reindex();
    expect(recorded(fx)).toEqual([{ lo: 1, hi: 16 }]);
    expect(inferBackfillRuns(fx.db)).toEqual([{ lo: 1, hi: 16 }]);
  });

  it('stops where the backfill did: lines written live after it are not part of it', async () => {
    fx = await threeBackfilled();
    // then, one after another as they were written (after the backfill: later than it, by the clock): the oldest
    // session resumed, its lines right after the backfill's last; two new sessions
    write(fx, SIDS[0], Date.now() + HOUR, 2);
    await fx.reindex();
    write(fx, SIDS[3], Date.now() + 2 * HOUR, 2);
    await fx.reindex();
    write(fx, CHILD, Date.now() + 3 * HOUR, 3);
    await fx.reindex();
    expect(recorded(fx)).toEqual([
      { lo: 1, hi: 12 },
      { lo: 13, hi: 14 },
      { lo: 15, hi: 16 },
      { lo: 17, hi: 19 },
    ]);
    // the restarts' catch-ups of one session each are no run of sessions: read downwards with the other live ids
    expect(inferBackfillRuns(fx.db)).toEqual([{ lo: 1, hi: 12 }]);
  });

  it('keeps a session whose last event is out of order inside the run when the next one continues it', async () => {
    fx = await fixtureDb({});
    write(fx, SIDS[0], NOW - 40 * DAY, 3);
    write(fx, SIDS[1], NOW - 30 * DAY, 3);
    write(fx, SIDS[2], NOW - 20 * DAY, 3);
    write(fx, SIDS[3], NOW - 10 * DAY, 3);
    await fx.reindex();
    expect(recorded(fx)).toEqual([{ lo: 1, hi: 12 }]);
    // the third session of the run (ids 7..9) says it was written today (a clock's step): still one run
    fx.db.prepare('UPDATE events SET ts = ? WHERE id = 9').run(NOW);
    expect(inferBackfillRuns(fx.db)).toEqual([{ lo: 1, hi: 12 }]);
    // two such sessions in a row begin a run of their own (the newest session, before them, is then no run's)
    fx.db.prepare('UPDATE events SET ts = ? WHERE id = 6').run(NOW);
    expect(inferBackfillRuns(fx.db)).toEqual([{ lo: 4, hi: 12 }]);
  });

  it('finds no run in lines written live, one session after another', async () => {
    fx = await fixtureDb({});
    for (const [i, sid] of SIDS.entries()) {
      write(fx, sid, NOW - (4 - i) * DAY, 3);
      await fx.reindex();
    }
    expect(inferBackfillRuns(fx.db)).toEqual([]);
  });

  /** The archive of three sessions backfilled, as it was before backfill_runs. */
  async function archiveBeforeRuns(): Promise<FixtureDb> {
    const made = await threeBackfilled();
    made.db.exec('DROP TABLE backfill_runs');
    return made;
  }

  it('is written once, when an archive from before backfill_runs is opened', async () => {
    fx = await archiveBeforeRuns();
    expect(ensureSchema(fx.db)).toBe(false);
    expect(recorded(fx)).toEqual([{ lo: 1, hi: 12 }]);
    expect(segmentsNewestFirst(fx.db)).toEqual([{ lo: 1, hi: 12, newestFirst: true }]);
    fx.db.exec('DELETE FROM backfill_runs'); // an archive with the table keeps what it recorded, even nothing
    ensureSchema(fx.db);
    expect(recorded(fx)).toEqual([]);
  });

  it('is read back once a rebuild has refilled the events, when a rebuild was interrupted before it was opened', async () => {
    fx = await archiveBeforeRuns();
    recreateDerived(fx.db); // a rebuild began (the derived tables emptied) and stopped before refilling them
    ensureSchema(fx.db);
    expect(recorded(fx)).toEqual([]);
    expect(getMeta(fx.db, 'backfill_runs_pending')).toBe('1');
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(recorded(fx)).toEqual([{ lo: 1, hi: 12 }]);
    expect(getMeta(fx.db, 'backfill_runs_pending')).toBeNull();
    expect(segmentsNewestFirst(fx.db)).toEqual([{ lo: 1, hi: 12, newestFirst: true }]);
  });
});
