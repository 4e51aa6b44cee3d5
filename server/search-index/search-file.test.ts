import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../app-context';
import { generateCorpus } from '../corpus/generate';
import { openReadDb, openWriteDb } from '../db/open';
import { WRITER_AUTOCHECKPOINT_BYTES } from '../db/write-ahead-log';
import { rebuildDerived } from '../db/rebuild';
import { ensureSchema, SCHEMA_VERSION } from '../db/schema';
import { searchProgress } from '../health/health';
import { indexOnce } from '../ingest/index-once';
import { Indexer } from '../ingest/indexer';
import { IngestStore } from '../ingest/store';
import { line } from '../test-support/fixture-db';
import { damageMiddlePage } from '../test-support/damage-page';
import { isCorruption } from '../db/damaged-index';
import { attachSearch, indexedThrough, openSearchWriteDb, removeSearchFiles, searchDbPath, SEARCH_FTS_TABLES, SEARCH_SCHEMA, SEARCH_VERSION, searchMetaValue, setSearchMeta } from './search-db';
import { InlineSearchFeed, type SearchFeed, type SearchRow } from './search-feed';
import { SearchThread } from './search-thread';
import { SearchWriter, type SearchWriterStatus } from './search-writer';
import { WAIT_MS } from '../test-support/until';
import { ftsSegments, indexInRuns } from '../test-support/fts-merging';

// The search file (event_text, event_cjk) is written apart from the archive, by the search thread, and refilled
// from the archive after a crash or a loss: these tests check that every path gives exactly the rows a live
// ingest gives, and that it never runs ahead of the archive.

let dir: string;
let corpus: string;
/** the rows of a plain threaded ingest of the corpus: what every other path must give */
let reference: SearchRows;

interface TableRows {
  rows: number;
  docs: number;
  digest: string;
}

interface SearchRows {
  /** fts5vocab 'instance' rows (term, doc, offset) of each table: count, distinct docs and a digest of them all */
  text: TableRows;
  cjk: TableRows;
  /** the same of the prompt tables, each doc named by its prompt_docs row's session and hash (not by its id) */
  promptText: TableRows;
  promptCjk: TableRows;
  mark: number;
}

/** Everything the FTS tables hold, read through a reader connection as search reads it. */
function searchRows(dbPath: string): SearchRows {
  const db = openReadDb(dbPath);
  const promptDoc = new Map<number, string>();
  for (const d of db.prepare(`SELECT id, session_key, hex(hash) h FROM ${SEARCH_SCHEMA}.prompt_docs`).all() as { id: number; session_key: number; h: string }[]) promptDoc.set(d.id, `${d.session_key}:${d.h}`);
  const of = (table: string, docName: (doc: number) => string = String) => {
    db.exec(`CREATE VIRTUAL TABLE temp.v_${table} USING fts5vocab(${SEARCH_SCHEMA}, ${table}, 'instance')`);
    const lines: string[] = [];
    const docs = new Set<number>();
    for (const r of db.prepare(`SELECT term, doc, offset FROM temp.v_${table}`).iterate() as Iterable<{ term: string; doc: number; offset: number }>) {
      lines.push(`${r.term}\u0001${docName(r.doc)}\u0001${r.offset}\n`);
      docs.add(r.doc);
    }
    const h = createHash('sha1');
    for (const l of lines.sort()) h.update(l);
    return { rows: lines.length, docs: docs.size, digest: h.digest('hex') };
  };
  const prompt = (doc: number) => promptDoc.get(doc) ?? `no prompt_docs row ${doc}`;
  const out = {
    text: of('event_text'),
    cjk: of('event_cjk'),
    promptText: of('prompt_text', prompt),
    promptCjk: of('prompt_cjk', prompt),
    mark: indexedThrough(db, SEARCH_SCHEMA),
  };
  db.close();
  return out;
}

function lastLineId(dbPath: string): number {
  const db = openReadDb(dbPath, { search: false });
  const m = (db.prepare('SELECT max(id) m FROM lines').get() as { m: number }).m;
  db.close();
  return m;
}

/** A fresh archive at `name`, indexed from the corpus by `index` (the threaded indexOnce by default). */
async function indexed(name: string, index: (db: Database.Database) => Promise<unknown> = (db) => indexOnce(db, [corpus])): Promise<string> {
  const dbPath = path.join(dir, name);
  const db = openWriteDb(dbPath);
  ensureSchema(db);
  await index(db);
  db.close();
  return dbPath;
}

/** A live row of an event's own text, with no prompt. */
const textRow = (id: number, text: string): SearchRow => ({ id, sessionKey: 1, text, cjk: '', said: false, promptParts: [] });

const NO_WORKSPACE_SESSION = 'b1a2c3d4-0000-4000-8000-00000000cafe';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-search-file-'));
  corpus = path.join(dir, 'corpus');
  await generateCorpus({ outDir: corpus, seed: 5, targetBytes: 1536 * 1024 });
  // As the newer writer writes (FORMAT §10): the no-workspace root, span ids from 1, both turn-id forms, an attr
  // cut at 5,000 characters, CJK text, a line repeated in its file (dup = 2: no text of its own) and a garbage line.
  const session = path.join(corpus, 'Code', 'User', 'globalStorage', 'github.copilot-chat', 'debug-logs', NO_WORKSPACE_SESSION);
  fs.mkdirSync(session, { recursive: true });
  const base = { ts: 1_764_000_000_000, dur: 0, sid: NO_WORKSPACE_SESSION, status: 'ok', rIdx: 0 };
  const ask = { ...base, type: 'user_message', name: 'user_message', spanId: '0000000000000001', attrs: { content: '修复重试逻辑 retryBudget please' } };
  fs.writeFileSync(
    path.join(session, 'main.jsonl'),
    line({ ...base, type: 'session_start', name: 'session_start', spanId: '0000000000000001', attrs: { copilotVersion: '0.40.0' } }) +
      line({ ...base, type: 'turn_start', name: 'turn_start:1', spanId: `turn_start-0000000000000001-1`, attrs: { turnId: 1 } }) +
      line(ask) +
      line(ask) +
      line({ ...base, type: 'turn_start', name: 'turn_start:2', spanId: `turn-start-0000000000000001-2`, attrs: { turnId: '2' } }) +
      line({ ...base, type: 'tool_call', name: 'read_file', spanId: '0000000000000002', attrs: { args: 'x'.repeat(5000) + '[truncated]' } }) +
      // a prompt in CJK, whose two strings fold to one text: one prompt row (prompt_docs keeps the first)
      line({ ...base, type: 'llm_request', name: 'chat:gpt-4.1', spanId: '0000000000000003', attrs: { model: 'gpt-4.1', userRequest: '请检查  重试预算', inputMessages: JSON.stringify([{ role: 'user', content: '请检查 重试预算' }]) } }) +
      '{"type": not json\n',
  );
  reference = searchRows(await indexed('reference.db'));
}, 180_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('the search file', () => {
  it('is complete through the archive after a threaded ingest, with no text for in-file repeats (dup = 2)', () => {
    const dbPath = path.join(dir, 'reference.db');
    expect(reference.mark).toBe(lastLineId(dbPath));
    expect(reference.text.docs).toBeGreaterThan(1000);
    expect(reference.cjk.docs).toBeGreaterThan(0);
    expect(reference.promptText.docs).toBeGreaterThan(100);
    expect(reference.promptCjk.docs).toBeGreaterThan(0);
    const db = openReadDb(dbPath);
    const repeats = (db.prepare('SELECT id FROM events WHERE dup = 2').all() as { id: number }[]).map((r) => r.id);
    expect(repeats.length).toBeGreaterThan(0);
    expect(db.prepare('SELECT count(*) n FROM event_text WHERE rowid IN (SELECT id FROM events WHERE dup = 2)').get()).toEqual({ n: 0 });
    // the repeated CJK message is found once, as its first copy
    expect(db.prepare(`SELECT count(*) n FROM event_text WHERE event_text MATCH '"修复重试"'`).get()).toEqual({ n: 1 });
    expect(db.prepare(`SELECT count(*) n FROM event_cjk WHERE event_cjk MATCH '"修 复"'`).get()).toEqual({ n: 1 });
    // the prompt rows live in the search file (written by its thread), one per prompt_docs row, none in the archive
    expect(db.prepare("SELECT count(*) n FROM main.sqlite_master WHERE name IN ('prompt_text', 'prompt_cjk', 'prompt_docs')").get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) n FROM prompt_text').get()).toEqual(db.prepare('SELECT count(*) n FROM prompt_docs').get());
    const cjkPrompt = db.prepare(`SELECT d.event_id FROM prompt_cjk p JOIN prompt_docs d ON d.id = p.rowid WHERE prompt_cjk MATCH '"重 试 预 算"'`).all();
    expect(cjkPrompt).toEqual(db.prepare("SELECT id AS event_id FROM events WHERE type = 'llm_request' AND span_id = '0000000000000003' AND session_num = (SELECT num FROM sessions WHERE id = ?)").all(NO_WORKSPACE_SESSION));
    db.close();
  });

  it("checkpoints the archive's log from the search thread, told of each commit: the writer's commits copy no pages", async () => {
    const dbPath = path.join(dir, 'checkpointed.db');
    const db = openWriteDb(dbPath);
    ensureSchema(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const schemaOnly = fs.statSync(dbPath).size;
    const search = new SearchThread(dbPath);
    // 4 MB committed: far under the writer's own automatic checkpoint, so only the search thread's can copy it
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    db.transaction(() => {
      for (let i = 0; i < 64; i++) put.run(`filler-${i}`, 'x'.repeat(64 * 1024));
    })();
    expect(fs.statSync(`${dbPath}-wal`).size).toBeLessThan(WRITER_AUTOCHECKPOINT_BYTES);
    search.committed(0);
    const until = Date.now() + WAIT_MS;
    while (fs.statSync(dbPath).size < schemaOnly + (4 << 20) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await search.close();
    expect(fs.statSync(dbPath).size - schemaOnly).toBeGreaterThanOrEqual(4 << 20);
    db.close();
  });

  it('merged into one segment a table once a backfill settles, with the same rows, and not again until it grew', async () => {
    let sessionFolders = 0;
    const dbPath = await indexed('merged.db', async (db) => (sessionFolders = await indexInRuns(db, corpus, path.join(dir, 'grown-corpus'))));
    expect(sessionFolders).toBeGreaterThan(6);
    const segments = () => {
      const db = new Database(searchDbPath(dbPath), { readonly: true });
      const n = SEARCH_FTS_TABLES.map((t) => ftsSegments(db, t));
      const merged = searchMetaValue(db, 'merged_through');
      db.close();
      return { n, merged };
    };
    const before = segments();
    expect(before.merged).toBe(null);
    expect(before.n[0]).toBeGreaterThanOrEqual(3); // event_text: a segment per commit group
    const rows = searchRows(dbPath);
    expect(rows.text.docs).toBeGreaterThan(1000);
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    await new Promise<void>((done) => writer.compact(done, { minGrowth: 1 }));
    expect(writer.compacting).toBe(false);
    writer.compact(() => expect.unreachable(), { minGrowth: 1 }); // merged through the mark: not due again
    expect(writer.compacting).toBe(false);
    writer.close();
    expect(segments()).toEqual({ n: [1, 1, 1, 1], merged: String(rows.mark) });
    expect(searchRows(dbPath)).toEqual(rows);
  }, 120_000);

  it('a merge step that meets a full disk: search says so, loses nothing, catches up by itself, and merges at the next settle', async () => {
    const dbPath = await indexed('merge-full.db', async (db) => {
      for (let run = 0; run < 2; run++) await indexOnce(db, [corpus]); // the second run adds nothing: one segment a run at most
    });
    const rows = searchRows(dbPath);
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    const exec = Database.prototype.exec;
    vi.spyOn(Database.prototype, 'exec').mockImplementation(function (this: Database.Database, sql: string) {
      if (sql.includes("'merge'")) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return exec.call(this, sql);
    });
    writer.compact(() => expect.unreachable(), { minGrowth: 1 });
    const until = Date.now() + WAIT_MS;
    while (writer.status.problem === null && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(writer.status.problem?.kind).toBe('disk_full');
    expect(writer.behind).toBe(true);
    expect(writer.compacting).toBe(false);
    vi.restoreAllMocks();
    expect(writer.catchUp()).toBe(true); // what CatchUpRetry does after its delay
    expect(writer.status.problem).toBe(null);
    await new Promise<void>((done) => writer.compact(done, { minGrowth: 1 }));
    writer.close();
    expect(searchRows(dbPath)).toEqual(rows);
    const db = new Database(searchDbPath(dbPath), { readonly: true });
    expect(searchMetaValue(db, 'merged_through')).toBe(String(rows.mark));
    db.close();
  }, 120_000);

  it('deleted between runs: refilled from the archive with exactly the rows a live ingest gave', async () => {
    const dbPath = await indexed('deleted.db');
    removeSearchFiles(searchDbPath(dbPath));
    const db = openWriteDb(dbPath);
    await indexOnce(db, [corpus]); // nothing new to index: the search thread catches up from mark 0
    db.close();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('killed between the archive commit and the search commit: nothing ahead of the archive, complete after a restart', async () => {
    // The search side of every group is lost, as when the process dies after the archive's COMMIT.
    const dbPath = await indexed('killed.db', async (db) => {
      const inline = new InlineSearchFeed(db.name);
      const killed: SearchFeed = {
        add: (...row) => inline.add(...row),
        committed: () => inline.rolledBack(),
        rolledBack: () => inline.rolledBack(),
        room: () => inline.room(),
        whenIndexed: () => Promise.resolve(),
        status: inline.status,
        close: () => inline.close(),
      };
      const indexer = new Indexer(db, { roots: [corpus], watch: false, waitForSpace: false, search: killed });
      await indexer.start();
      await indexer.whenIdle();
      await killed.close();
    });
    const lost = searchRows(dbPath);
    expect([lost.mark, lost.text.rows, lost.cjk.rows]).toEqual([0, 0, 0]);
    const db = openWriteDb(dbPath);
    await indexOnce(db, [corpus]);
    db.close();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('a search thread that dies mid-backfill is started again and the result is identical', async () => {
    const dbPath = await indexed('crashed.db', async (db) => {
      let statuses = 0;
      const search = new SearchThread(db.name, () => statuses++);
      // Dies in the middle of a group (between two files of it): rows of the group went to the thread that died,
      // the rest go to the new one.
      let crashed = false;
      let files = 0;
      const room = search.room.bind(search);
      search.room = async () => {
        await room(); // posts what the group wrote so far
        if (++files === 3) {
          expect(db.inTransaction).toBe(true);
          await search.crashForTest();
          // the new thread is up (it reported its catch-up) while the group is still open
          const before = statuses;
          while (statuses === before) await new Promise((r) => setTimeout(r, 5));
          expect(db.inTransaction).toBe(true);
          crashed = true;
        }
      };
      const indexer = new Indexer(db, { roots: [corpus], watch: false, waitForSpace: false, search });
      await indexer.start();
      await indexer.whenIdle();
      await indexer.whenSearchCaughtUp();
      await search.close();
      expect(crashed).toBe(true);
    });
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('deleted while the server runs: the writer notices at its next commit, starts a new file and refills it; readers follow', async () => {
    const dbPath = await indexed('live-delete.db');
    const reader = openReadDb(dbPath);
    const writer = new SearchWriter(dbPath);
    writer.catchUp();
    removeSearchFiles(searchDbPath(dbPath));
    writer.commit(lastLineId(dbPath));
    expect(writer.status).toEqual({ indexedThrough: lastLineId(dbPath), archiveThrough: lastLineId(dbPath), problem: null, archiveDamage: null });
    writer.close();
    expect(searchRows(dbPath)).toEqual(reference);
    attachSearch(reader, dbPath); // what the server does on each of the writer's status messages
    const ref = openReadDb(path.join(dir, 'reference.db'));
    expect(reader.prepare('SELECT count(*) n FROM event_text').get()).toEqual(ref.prepare('SELECT count(*) n FROM event_text').get());
    ref.close();
    reader.close();
  }, 120_000);

  it('deleted while the server is idle (no commit to come): noticed by the periodic look and refilled', async () => {
    const dbPath = await indexed('idle-delete.db');
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    removeSearchFiles(searchDbPath(dbPath));
    writer.followFile(); // what the search thread does every FOLLOW_FILE_MS
    writer.close();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('damaged: moved aside (kept), refilled from the archive, and the problem says so', async () => {
    const dbPath = await indexed('damaged.db');
    const file = searchDbPath(dbPath);
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(100, 0xee), 0, 100, 0); // the header: "file is not a database"
    fs.closeSync(fd);
    const statuses: SearchWriterStatus[] = [];
    const writer = new SearchWriter(dbPath, (s) => statuses.push(s));
    expect(writer.catchUp()).toBe(true);
    writer.close();
    expect(statuses[0].problem).toMatchObject({ kind: 'corrupt' });
    expect(statuses[0].problem!.reason).toMatch(/^the search index .*damaged\.search\.db was damaged \(.*\); it was moved to .*damaged\.search\.db\.corrupt-/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('damaged.search.db.corrupt-') && !f.endsWith('-wal') && !f.endsWith('-shm'))).toHaveLength(1);
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('on a full disk: search pauses with "disk full: <search file>", nothing is lost, and it resumes by itself', async () => {
    let full = true;
    const original = Database.prototype.exec;
    vi.spyOn(Database.prototype, 'exec').mockImplementation(function (this: Database.Database, sql: string) {
      if (full && sql === 'COMMIT' && this.name.endsWith('.search.db')) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return original.call(this, sql);
    });
    setTimeout(() => (full = false), 1500);
    const statuses: SearchWriterStatus[] = [];
    const t = Date.now();
    const dbPath = await indexed('full.db', async (db) => {
      const indexer = new Indexer(db, { roots: [corpus], watch: false, waitForSpace: false, search: new InlineSearchFeed(db.name, (s) => statuses.push(s)) });
      await indexer.start();
      await indexer.whenIdle();
      await indexer.whenSearchCaughtUp(); // resolves only once the retries got through
      await indexer.stop();
    });
    expect(Date.now() - t).toBeGreaterThanOrEqual(1500);
    const paused = statuses.find((s) => s.problem !== null)!;
    expect(paused.problem).toEqual({ kind: 'disk_full', reason: expect.stringMatching(/^disk full: .*full\.search\.db \(database or disk is full\)\. Indexing is paused and retries by itself/) });
    expect(statuses.at(-1)!.problem).toBeNull();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('a rolled-back group is rolled back in search too, and rows at or below the mark are not written twice', async () => {
    const dbPath = await indexed('rollback.db');
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    const through = lastLineId(dbPath);
    writer.add([textRow(through + 1, 'ghost of a rolled-back group')]);
    writer.rollback();
    writer.add([textRow(through, 'written again by a late message')]);
    writer.commit(through);
    writer.close();
    const db = openReadDb(dbPath);
    expect(db.prepare(`SELECT count(*) n FROM event_text WHERE event_text MATCH '"rolled-back" OR "late message"'`).get()).toEqual({ n: 0 });
    db.close();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('a retry between two commits leaves the open group alone (it rolled back the live rows of a group that had lost none)', async () => {
    const dbPath = await indexed('retry.db');
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    const next = lastLineId(dbPath) + 1;
    writer.add([textRow(next, 'kestrelmoth in the open group')]);
    writer.catchUp(); // what a retry timer scheduled before the last failure cleared does when it fires
    writer.commit(next);
    writer.close();
    const db = openReadDb(dbPath);
    expect(db.prepare(`SELECT rowid FROM event_text WHERE event_text MATCH 'kestrelmoth'`).all()).toEqual([{ rowid: next }]);
    db.close();
  }, 120_000);

  it('is created whole or not at all: another opener never sees its tables without its marks (and deletes it)', () => {
    // A reader's attachSearch and the search thread create the file at the same moment; one that saw tables
    // without an archive_id took the file for another archive's and deleted it under the other.
    const archive = path.join(dir, 'created-whole.db');
    const file = searchDbPath(archive);
    const seen: string[] = [];
    const exec = Database.prototype.exec;
    vi.spyOn(Database.prototype, 'exec').mockImplementation(function (this: Database.Database, sql: string) {
      const out = exec.call(this, sql);
      if (sql.includes('CREATE TABLE IF NOT EXISTS search_meta')) {
        const other = new Database(file, { readonly: true });
        const tables = other.prepare("SELECT count(*) n FROM sqlite_master WHERE name = 'search_meta'").get() as { n: number };
        const marks = tables.n === 0 ? 0 : (other.prepare('SELECT count(*) n FROM search_meta').get() as { n: number }).n;
        other.close();
        seen.push(`tables ${tables.n}, marks ${marks}`);
      }
      return out;
    });
    openSearchWriteDb(archive, { archiveId: 'archive-w' }).close();
    vi.restoreAllMocks();
    expect(seen).toEqual(['tables 0, marks 0']);
    const db = openSearchWriteDb(archive, { archiveId: 'archive-w' });
    expect([searchMetaValue(db, 'archive_id'), indexedThrough(db)]).toEqual(['archive-w', 0]);
    db.close();
  });

  it('is kept when only the archive is rebuilt (a SCHEMA_VERSION bump): the upgrade refills nothing, and search is whole', async () => {
    const dbPath = await indexed('upgrade.db');
    // as a release with older derived tables and the same text rules left them: the archive a SCHEMA_VERSION
    // behind, the search file at this SEARCH_VERSION
    const old = new Database(searchDbPath(dbPath));
    setSearchMeta(old, 'schema_version', String(SEARCH_VERSION));
    old.close();
    const db = openWriteDb(dbPath);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(SCHEMA_VERSION - 1));
    expect(ensureSchema(db)).toBe(true);
    rebuildDerived(db, new IngestStore(db));
    db.close();
    const writer = new SearchWriter(dbPath);
    // the file kept its mark (discarded, it would start again from 0 and refill every event)
    expect(writer.status.indexedThrough).toBe(lastLineId(dbPath));
    expect(writer.catchUp({ trustLiveRows: true })).toBe(true);
    writer.close();
    expect(searchRows(dbPath)).toEqual(reference);
    const s = new Database(searchDbPath(dbPath));
    expect(searchMetaValue(s, 'schema_version')).toBe(String(SEARCH_VERSION));
    s.close();
  }, 120_000);

  it("a damaged page of the archive met by the catch-up is the archive's damage: the search file stays, and a one-shot index rejects so that its caller rebuilds", async () => {
    const dbPath = await indexed('damaged-archive.db');
    damageMiddlePage(dbPath, 'events');
    removeSearchFiles(searchDbPath(dbPath)); // the catch-up must read every event back from the archive
    const statuses: SearchWriterStatus[] = [];
    const writer = new SearchWriter(dbPath, (s) => statuses.push(s));
    expect(writer.catchUp({ trustLiveRows: true })).toBe(false);
    writer.close();
    expect(statuses.at(-1)?.archiveDamage).toMatch(/malformed/);
    expect(statuses.at(-1)?.problem).toEqual({ kind: 'corrupt', reason: expect.stringMatching(/^the index .*damaged-archive\.db is damaged \(.*malformed.*\): search cannot read it until it is rebuilt$/) });
    // the search file was not taken for the damaged one (it was moved aside and refilled, for ever, before)
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('damaged-archive.search.db.corrupt'))).toEqual([]);
    // nothing new to archive, so only the search thread reads the damaged page: the run ends, as SQLite's corruption
    const db = openWriteDb(dbPath);
    const err = await indexOnce(db, [corpus]).then(
      () => null,
      (e: unknown) => e,
    );
    db.close();
    expect(isCorruption(err)).toBe(true);
  }, 60_000);

  it('a search file of another archive (or another schema) is discarded and refilled', () => {
    const archive = path.join(dir, 'other.db');
    const a = openSearchWriteDb(archive, { archiveId: 'archive-a' });
    a.prepare('INSERT INTO event_text (rowid, text) VALUES (7, ?)').run('from archive a');
    setSearchMeta(a, 'indexed_through', '7');
    a.close();
    const b = openSearchWriteDb(archive, { archiveId: 'archive-b' });
    expect([indexedThrough(b), (b.prepare('SELECT count(*) n FROM event_text').get() as { n: number }).n]).toEqual([0, 0]);
    b.close();
  });

  it("merges 16 segments a level in every table and holds 8 MB of event_text's terms, in a new file and in one written before", () => {
    const archive = path.join(dir, 'merge-policy.db');
    const policy = (db: Database.Database) =>
      ['event_text', 'event_cjk', 'prompt_text', 'prompt_cjk'].map((t) =>
        db.prepare(`SELECT k, v FROM ${t}_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k`).all().map((r) => Object.values(r as object).join('=')).join(' '),
      );
    const created = openSearchWriteDb(archive, { archiveId: 'archive-m' });
    expect(policy(created)).toEqual(Array(4).fill('automerge=16 crisismerge=64'));
    // a file written with FTS5's defaults (automerge 4, crisismerge 16) and a 16 MB hash: opened again, it takes the policy
    created.exec(`INSERT INTO event_text (event_text, rank) VALUES ('hashsize', ${16 * 1024 * 1024})`);
    for (const t of ['event_text', 'event_cjk', 'prompt_text', 'prompt_cjk']) {
      created.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 4); INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 16)`);
    }
    expect(policy(created)).toEqual(Array(4).fill('automerge=4 crisismerge=16'));
    created.close();
    const reopened = openSearchWriteDb(archive, { archiveId: 'archive-m' });
    expect(policy(reopened)).toEqual(Array(4).fill('automerge=16 crisismerge=64'));
    expect(reopened.prepare("SELECT v FROM event_text_config WHERE k = 'hashsize'").pluck().get()).toBe(8 * 1024 * 1024);
    reopened.close();
  });

  it("once the backfill settles, live commits merge at FTS5's own policy: their small segments do not pile up beside the merged one", async () => {
    const dbPath = await indexed('live-merge.db');
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    await new Promise<void>((done) => writer.compact(done, { minGrowth: 1 }));
    const segments = () => {
      const db = new Database(searchDbPath(dbPath), { readonly: true });
      const n = ftsSegments(db, 'event_text');
      db.close();
      return n;
    };
    let next = lastLineId(dbPath) + 1;
    /** `n` live groups of one event each, each committed on its own as live appends are */
    const liveCommits = (n: number) => {
      for (let i = 0; i < n; i++, next++) {
        writer.add([textRow(next, `live append ${next} of the wombatquill session`)]);
        writer.commit(next);
      }
    };
    expect(segments()).toBe(1);
    liveCommits(12);
    expect(segments()).toBe(13); // the backfill's policy, 16 a level: each commit's segment stays
    writer.settle();
    // 200 more, as a day of an agent's appends. FTS5 merges only once 64 leaf pages were written since its last
    // merge, whatever the policy, so a level fills up before it runs: at 16 a level these reached 65 segments (every
    // query reads each of them), at FTS5's 4 they stay at 24 or fewer
    let most = 0;
    for (let i = 0; i < 200; i++) {
      liveCommits(1);
      most = Math.max(most, segments());
    }
    expect(most).toBe(24);
    writer.close();
    const db = openReadDb(dbPath);
    expect(db.prepare(`SELECT count(*) n FROM event_text WHERE event_text MATCH 'wombatquill'`).get()).toEqual({ n: 212 });
    db.close();
    // opened again (a restart, whose backfill comes first): the backfill's policy again
    new SearchWriter(dbPath).close();
    const reopened = new Database(searchDbPath(dbPath), { readonly: true });
    expect(reopened.prepare("SELECT v FROM event_text_config WHERE k = 'automerge'").pluck().get()).toBe(16);
    reopened.close();
  }, 120_000);

  it('a commit of a group the catch-up has already read past leaves the mark where it is: it never moves back', async () => {
    // A thread started late (a loaded machine, a restart) catches up from the archive through groups whose
    // "commit" messages are still queued; writing their mark took it back (health said events behind, and a
    // notice sent for the newer mark found the older one in the file).
    const dbPath = await indexed('late-commit.db');
    removeSearchFiles(searchDbPath(dbPath));
    const through = lastLineId(dbPath);
    const writer = new SearchWriter(dbPath);
    writer.catchUp({ trustLiveRows: true });
    writer.add([textRow(Math.floor(through / 2), 'a row of the early group, already read')]);
    writer.commit(Math.floor(through / 2));
    expect(writer.status.indexedThrough).toBe(through);
    writer.close();
    expect(searchRows(dbPath)).toEqual(reference);
  }, 120_000);

  it('"indexed" is sent only once search has committed the group: a client told so finds the new lines', async () => {
    const dbPath = path.join(dir, 'notify.db');
    const db = openWriteDb(dbPath);
    ensureSchema(db);
    const search = new SearchThread(dbPath);
    // The commit each notification is about: the Indexer waits on whenIndexed(through) before it announces it.
    let announced = 0;
    const whenIndexed = search.whenIndexed.bind(search);
    search.whenIndexed = (through) => whenIndexed(through).then(() => void (announced = through));
    const found: number[] = [];
    const reader = openReadDb(dbPath);
    const indexer = new Indexer(
      db,
      { roots: [corpus], watch: false, waitForSpace: false, search },
      {
        indexed: () => {
          // every event of the announced commit has its rows committed in the search file
          attachSearch(reader, dbPath);
          found.push(indexedThrough(reader, SEARCH_SCHEMA) - announced);
        },
      },
    );
    await indexer.start();
    await indexer.whenIdle();
    await indexer.whenSearchCaughtUp();
    await new Promise((r) => setTimeout(r, 50));
    await search.close();
    reader.close();
    db.close();
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((behind) => behind >= 0)).toBe(true);
  }, 120_000);

  it('health reports how many events search lags behind the archive', async () => {
    const dbPath = path.join(dir, 'reference.db');
    const ctx = { db: openReadDb(dbPath), dbPath } as AppContext;
    expect(searchProgress(ctx)).toEqual({ indexedThrough: reference.mark, eventsBehind: 0 });
    const events = (ctx.db.prepare('SELECT count(*) n FROM main.events WHERE id > ?').get(reference.mark - 500) as { n: number }).n;
    const s = new Database(searchDbPath(dbPath));
    setSearchMeta(s, 'indexed_through', String(reference.mark - 500));
    s.close();
    expect(searchProgress(ctx)).toEqual({ indexedThrough: reference.mark - 500, eventsBehind: events });
    const back = new Database(searchDbPath(dbPath));
    setSearchMeta(back, 'indexed_through', String(reference.mark));
    back.close();
    ctx.db.close();
  });
});
