// The sums the writer keeps of the sessions it writes (session-totals.ts) stand in for the refresh's SQL over their
// events: on a generated corpus (CLI sessions, copies across sessions, credits, child logs, one session id under two
// roots) every session's refreshed facts are the same figures that SQL gives, and a session whose earlier events
// this process did not write (after a restart) is summed by SQL, whole.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { corpusRoots } from '../corpus/corpus-roots';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { writeUserDataTree } from '../test-support/user-data-tree';
import { rebuildDerived } from '../db/rebuild';
import { indexOnce } from './index-once';
import { IngestStore } from './store';
import { makeSessionRefresher } from './refresh-session';
import { SessionTotals } from './session-totals';

const FACTS = `SELECT id, event_count, error_count, first_ts, last_ts, created_at, updated_at, tokens_in, tokens_out, tokens_cached,
  model_ms, credits_nano, credited_calls, counts, models, slowest_event FROM sessions ORDER BY id`;

/** Every session refreshed again by SQL alone (no writer's sums), in a transaction rolled back: its facts then. */
function factsBySql(db: Database.Database): unknown[] {
  const refresh = makeSessionRefresher(db);
  const ids = (db.prepare('SELECT id FROM sessions').all() as { id: string }[]).map((r) => r.id);
  db.exec('BEGIN');
  try {
    for (const id of ids) refresh(id);
    return db.prepare(FACTS).all();
  } finally {
    db.exec('ROLLBACK');
  }
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-totals-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the writer's sums of a session", () => {
  it('give every session of a generated corpus the facts SQL gives', async () => {
    const corpus = path.join(dir, 'corpus');
    await generateCorpus({ outDir: corpus, seed: 29, targetBytes: 3 * 1024 * 1024 });
    const db = openWriteDb(path.join(dir, 'generated.db'));
    ensureSchema(db);
    const known = vi.spyOn(SessionTotals.prototype, 'known');
    try {
      await (await indexOnce(db, corpusRoots(corpus))).stop();
      const sessions = (db.prepare('SELECT count(*) n FROM sessions').get() as { n: number }).n;
      // the sums were what the refreshes read, for most sessions (a session evicted or re-read falls back to SQL)
      expect(known.mock.calls.length).toBeGreaterThan(sessions / 2);
      expect(db.prepare("SELECT count(*) n FROM sessions WHERE source = 'cli'").get()).not.toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) n FROM events WHERE dup = 1').get()).not.toEqual({ n: 0 });
      expect(db.prepare(FACTS).all()).toEqual(factsBySql(db));
      // A writer that caches two sessions' state (a backfill's group writes a thousand, the writer keeps 256): the
      // sums of the sessions it dropped before their refresh are kept for it, and revived if a session comes back.
      const facts = db.prepare(FACTS).all();
      known.mockClear();
      rebuildDerived(db, new IngestStore(db, undefined, 2));
      expect(known.mock.calls.length).toBe(sessions);
      expect(db.prepare(FACTS).all()).toEqual(facts);
    } finally {
      known.mockRestore();
      db.close();
    }
  }, 120_000);

  it('are not trusted for a session with events from before: a restart appends to it and SQL sums the whole; a rebuild sums again', async () => {
    const tree = writeUserDataTree(path.join(dir, 'Code'), [
      // one id under two roots: its second file continues the sums of its first
      { root: 'alpha', id: 'sY', marker: 'm', requests: 2, turnForm: 'code', mtime: Date.UTC(2026, 10, 1), tsBase: Date.UTC(2026, 10, 1) },
      { root: 'beta', id: 'sY', marker: 'm', requests: 1, turnForm: 'skill', child: true, mtime: Date.UTC(2026, 10, 2), tsBase: Date.UTC(2026, 10, 2) },
    ]);
    const db = openWriteDb(path.join(dir, 'restart.db'));
    ensureSchema(db);
    try {
      await (await indexOnce(db, [tree.userDataDir])).stop();
      expect(db.prepare(FACTS).all()).toEqual(factsBySql(db));
      const before = db.prepare("SELECT event_count FROM sessions WHERE id = 'sY'").get() as { event_count: number };
      // a new process (a new writer) reads lines appended to the session's main log
      const main = tree.logFiles.filter((f) => f.includes(`${path.sep}sY${path.sep}`) && f.endsWith('main.jsonl')).sort().at(-1)!;
      const line = JSON.parse(fs.readFileSync(main, 'utf8').split('\n')[0]) as Record<string, unknown>;
      fs.appendFileSync(main, `${JSON.stringify({ ...line, type: 'tool_call', name: 'read_file', spanId: 'appended', dur: 999_999, status: 'error' })}\n`);
      await (await indexOnce(db, [tree.userDataDir])).stop();
      const after = db.prepare("SELECT event_count, error_count, slowest_event FROM sessions WHERE id = 'sY'").get() as { event_count: number; error_count: number; slowest_event: number };
      expect(after.event_count).toBe(before.event_count + 1);
      expect(after.slowest_event).toBe((db.prepare("SELECT id FROM events WHERE span_id = 'appended'").get() as { id: number }).id);
      expect(db.prepare(FACTS).all()).toEqual(factsBySql(db));
      // a rebuild of the derived tables sums each session as it refills it, file by file
      const facts = db.prepare(FACTS).all();
      rebuildDerived(db, new IngestStore(db));
      expect(db.prepare(FACTS).all()).toEqual(facts);
    } finally {
      db.close();
    }
  }, 60_000);
});
