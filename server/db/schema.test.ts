import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSearchWriteDb } from '../search-index/search-db';
import { ensureSchema, getMeta } from './schema';

describe('schema', () => {
  it('gives the trigram index, in the search file, an 8 MB pending-terms hash (fewer, larger segments during a backfill)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-schema-'));
    const search = openSearchWriteDb(path.join(dir, 'index.db'), { archiveId: 'a' });
    expect(search.prepare("SELECT v FROM event_text_config WHERE k = 'hashsize'").get()).toEqual({ v: 8 * 1024 * 1024 });
    search.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps event text out of the archive (the search file holds it) and gives the archive an identity', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE name IN ('event_text', 'event_cjk')").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual([]);
    expect(getMeta(db, 'archive_id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('adds the indexes made after SCHEMA_VERSION to an archive that lacks them, without a rebuild', () => {
    const db = new Database(':memory:');
    expect(ensureSchema(db)).toBe(true); // a new archive: its derived tables created
    const later = () =>
      db.prepare("SELECT name FROM sqlite_master WHERE name IN ('sessions_non_ascii', 'session_files_non_ascii', 'sessions_titles') ORDER BY name").pluck().all() as string[];
    expect(later()).toEqual(['session_files_non_ascii', 'sessions_non_ascii', 'sessions_titles']);
    db.exec('DROP INDEX sessions_non_ascii; DROP INDEX session_files_non_ascii; DROP INDEX sessions_titles'); // an archive written before them
    db.prepare("INSERT INTO sessions (id, num, title) VALUES ('s', 1, '落盘')").run();
    expect(ensureSchema(db)).toBe(false); // no rebuild …
    expect(later()).toEqual(['session_files_non_ascii', 'sessions_non_ascii', 'sessions_titles']); // … and the indexes are there
    expect(db.prepare('SELECT count(*) FROM sessions').pluck().get()).toBe(1);
  });

  it("gives an older archive's companions their place among the lines, keeping its rows and derived tables", () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    db.exec('ALTER TABLE companions DROP COLUMN at_line'); // an archive written before it
    db.prepare("INSERT INTO companions (path, session_id, name, kind, content) VALUES ('/p/system_prompt_0.json', 's', 'system_prompt_0.json', 'system_prompt', 'x')").run();
    expect(ensureSchema(db)).toBe(false);
    expect(db.prepare('SELECT name, at_line FROM companions').all()).toEqual([{ name: 'system_prompt_0.json', at_line: null }]);
  });

  it('writes no partial index whose condition is an IN list', () => {
    // SQLite evaluates such a list through a temporary table built again at every INSERT, even of two values:
    // events_cli_spans' four types cost ~1 µs per event of a backfill, the session_start/shutdown index's two ~0.7 µs
    // (re-inserting 300,000 events into the 1.6 GiB bench archive), against ~0.01 µs as an OR of equalities, which
    // also implies each of its equalities to the planner.
    const db = new Database(':memory:');
    ensureSchema(db);
    const conditions = (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'").all() as { name: string; sql: string }[]).map(
      (r) => ({ name: r.name, lists: [...r.sql.matchAll(/\bIN\s*\(([^)]*)\)/gi)].length }),
    );
    expect(conditions.length).toBeGreaterThan(5);
    expect(conditions.filter((c) => c.lists > 0)).toEqual([]);
  });

  it('indexes no event of every kind by time, duration or TTFT across sessions, only the slow calls, errors and requests', () => {
    // Such an index takes each insert of a backfill to a random page of a B-tree as large as the corpus: events_ts
    // (ts) and events_dur (dur > 0) cost 0.5 and 0.8 µs of the ~5 µs an events insert took at 0.25× the bench corpus,
    // events_ttft (every model call) ~0.6 µs an event at 1×.
    const db = new Database(':memory:');
    ensureSchema(db);
    const keyedByTimeOrDur = db
      .prepare("SELECT i.name, i.sql FROM sqlite_master i WHERE i.type = 'index' AND i.tbl_name = 'events' AND (SELECT name FROM pragma_index_info(i.name) WHERE seqno = 0) IN ('ts', 'dur', 'ttft')")
      .all() as { name: string; sql: string }[];
    expect(Object.fromEntries(keyedByTimeOrDur.map((r) => [r.name, r.sql.replace(/^.* WHERE /, '')]))).toEqual({
      events_dur: 'dur > 5000 AND dup = 0',
      events_slow_ts: 'dur > 5000 AND dup = 0',
      events_errors: 'status = 1 AND dup = 0',
      events_requests: "type = 'user_message' AND dup = 0",
      events_model_calls: "type = 'llm_request' AND dup = 0",
    });
  });

  it('indexes files by session: every refresh of a session reads its files', () => {
    const db = new Database(':memory:');
    ensureSchema(db);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM files WHERE session_id = 'x'").all() as { detail: string }[];
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH files USING COVERING INDEX files_session (session_id=?)']);
  });
});
