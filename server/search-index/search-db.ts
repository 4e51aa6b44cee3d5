import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { WAL_KEEP_BYTES } from '../db/write-ahead-log';

/**
 * The search file: the trigram index of event text (`event_text`, `event_cjk`) and of prompt strings (`prompt_text`,
 * `prompt_cjk`) beside the archive, written by a
 * thread of its own (search-thread.ts) so that the writer's core is not spent on FTS5 inserts and merges (about
 * 45% of a backfill's CPU, docs/CONTRIBUTING.md). Readers ATTACH it as `search` (server/db/open.ts), so queries
 * name the tables unqualified.
 *
 * It says which archive it belongs to and how far it has got:
 * - `archive_id`: the archive's `meta.archive_id`; a file of another archive (the archive moved aside as damaged
 *   and created again) is discarded.
 * - `schema_version`: SEARCH_VERSION when it was filled; another version means the text rules changed: discarded.
 * - `indexed_through`: every event with id <= it that has text has its rows, and nothing past it has any
 *   (rows are committed with the mark, only after the archive committed the events: search-writer.ts).
 */
export function searchDbPath(archivePath: string): string {
  return archivePath.replace(/\.db$/, '') + '.search.db';
}

/**
 * Version of what the search file holds: the text rules (server/search/indexed-text.ts, processLine's text and
 * cjk) and its tables. Bump it when they change. A SCHEMA_VERSION bump alone (a derived table or an index of the
 * archive) keeps the search file: its rows are keyed by line ids, which a rebuild of the derived tables keeps, so
 * an upgrade does not refill search from scratch (minutes on a large archive). 17 is the SCHEMA_VERSION the
 * search file was split off at, so the files written since stay valid; 18: prose in brackets cut at 5,000
 * characters is indexed as written (it had given no text at all); 19: prompt_docs lives here, keyed by the session's
 * id (session-prompts.ts), no longer in the archive.
 */
export const SEARCH_VERSION = 19;

/** The schema name readers attach the search file under. */
export const SEARCH_SCHEMA = 'search';

const SEARCH_DDL = `
CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT);
-- Substring search (issue 3): trigram over each event's indexed text (server/search/indexed-text.ts), contentless
-- (the text lives in the archive), explicit rowid = events.id. detail=full because a substring is a phrase of trigrams.
CREATE VIRTUAL TABLE IF NOT EXISTS event_text USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1);
-- One- and two-character CJK queries, which trigrams cannot answer: each CJK character one token.
CREATE VIRTUAL TABLE IF NOT EXISTS event_cjk USING fts5 (text, tokenize = 'unicode61', content = '', contentless_delete = 1);
`;

/**
 * The prompt strings a session's model calls were sent (llm_request userRequest and each inputMessages message):
 * every request repeats the conversation so far, so each distinct text is kept once per session (session_key:
 * sessionKeyOf the session's id, which a rebuild of the archive keeps; hash: the first 8 bytes of the folded text's
 * SHA-1), with the first event that sent it (events.id); its text is indexed in prompt_text / prompt_cjk (rowid =
 * prompt_docs.id) and read back from that event's archived line. Written by this file's thread, which decides
 * which strings are new (session-prompts.ts): the trigram inserts since SCHEMA_VERSION 21, the rest since
 * SEARCH_VERSION 19, when walking the prompts and de-duplicating them was ~8% of the ingest thread.
 */
const PROMPT_DDL = `
CREATE TABLE IF NOT EXISTS prompt_docs (id INTEGER PRIMARY KEY, session_key INTEGER NOT NULL, hash BLOB NOT NULL, event_id INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS prompt_docs_hash ON prompt_docs (session_key, hash);
CREATE VIRTUAL TABLE IF NOT EXISTS prompt_text USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1);
CREATE VIRTUAL TABLE IF NOT EXISTS prompt_cjk USING fts5 (text, tokenize = 'unicode61', content = '', contentless_delete = 1);
`;

/**
 * FTS5 keeps event_text's new terms in memory until a commit or this many bytes (1 MB by default), then writes them
 * as a segment that later merges rewrite: larger segments, less merging (with 5 s backfill groups, 700 MB of logs
 * indexed in 64 s instead of 77 s at FTS5's default merge policy). With FTS_MERGE_CONFIG's 16 segments a level, 8 MB
 * costs no more than 16 (the 1.6 GiB corpus's rows replayed: 36.0 against 36.9 CPU s) and holds 8 MB less at a
 * backfill's peak RSS. Live, commits come every 200 ms and the hash stays small. Set on every open, like the policy.
 */
const HASH_BYTES = 8 * 1024 * 1024;

/**
 * FTS5's merge policy for the search file's tables (`automerge`, `crisismerge`; kept in each table's %_config, so
 * it is set again on every open and holds for files written before it). FTS5 merges a level's segments once
 * `automerge` of them exist (4 by default), so every posting is rewritten once per level; with 16, the index has
 * about half as many levels. The 1.6 GiB bench corpus's search rows (417 MB of text, scratch replay of the rows
 * in one thread, CPU): 49.3 s with FTS5's defaults, 41.3 s at automerge 8, 36.9 s at 16 with crisismerge 64 (29.1 s
 * without any merge, which made a query read ten times as many segments). A query reads up to 16 segments a level
 * instead of 4: a first page of `import` 0.24 → 0.34 ms, of `ui/SessionList.tsx` 1.2 → 1.8 ms on that index.
 * `crisismerge` (16 by default) must stay above `automerge`, or a level is merged whole before automerge would.
 */
export const FTS_MERGE_CONFIG = { automerge: 16, crisismerge: 64 } as const;

/**
 * The policy once a backfill has settled (SearchWriter.settle), until the file is opened again: FTS5's own defaults.
 * Live commits come every 200 ms with a few rows each, so each writes a small segment, and at 16 a level they piled
 * up beside the one the merge after the backfill left (fts-compaction.ts): 23 segments in event_text after the bench's
 * 200 appended lines, read by every query. FTS5 merges only once 64 leaf pages were written since its last merge,
 * so a level fills past its policy before a merge runs: 200 one-page commits reached 65 segments at 16 a level, 24 at
 * 4 (search-file.test.ts). The small ones are merged among themselves, at a cost of their own size: the merged
 * segment keeps a level of its own (FTS5 promotes a segment only to a level whose newest segment is no larger).
 */
export const LIVE_MERGE_CONFIG = { automerge: 4, crisismerge: 16 } as const;

/** The search file's FTS5 tables (their merge policy is FTS_MERGE_CONFIG; merged whole after a backfill, search-writer.ts compact). */
export const SEARCH_FTS_TABLES = ['event_text', 'event_cjk', 'prompt_text', 'prompt_cjk'] as const;

/**
 * Page cache of the search thread's connection, in KiB. FTS5 inserts go through its pending-terms hash, not the
 * page cache; the pages read back are the segment index and the merges' inputs.
 */
const SEARCH_CACHE_KB = 4096;

export interface SearchDbIdentity {
  archiveId: string;
}

/** Opens the search file for writing (WAL, like the archive), creating it, or emptying one of another archive or schema. */
export function openSearchWriteDb(archivePath: string, id: SearchDbIdentity): Database.Database {
  const file = searchDbPath(archivePath);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db = openWritable(file);
  if (!belongsTo(db, id)) {
    db.close();
    removeSearchFiles(file);
    db = openWritable(file);
  }
  // Tables and marks in one transaction that holds the write lock from its start, checked again under it: a
  // reader's attachSearch and the search thread can create the file at the same moment, and one that saw the
  // other's tables without their marks took the file for another archive's and deleted it. The thread then wrote
  // a deleted file while every reader read the new one, whose mark stayed at the first commit.
  db.transaction(() => {
    db.exec(PROMPT_DDL);
    if (hasSearchMeta(db) && searchMetaValue(db, 'archive_id') !== null) {
      setBackfillPolicy(db);
      return;
    }
    db.exec(SEARCH_DDL);
    setBackfillPolicy(db);
    setSearchMeta(db, 'archive_id', id.archiveId);
    setSearchMeta(db, 'schema_version', String(SEARCH_VERSION));
    setSearchMeta(db, 'indexed_through', '0');
  }).immediate();
  return db;
}

/** FTS_MERGE_CONFIG on every FTS5 table of the file, and event_text's HASH_BYTES (literals: bound, they would be REALs). */
function setBackfillPolicy(db: Database.Database): void {
  db.exec(`INSERT INTO event_text (event_text, rank) VALUES ('hashsize', ${HASH_BYTES})`);
  setMergePolicy(db, FTS_MERGE_CONFIG);
}

/** `policy` on every FTS5 table of the search file open as `db` (a write: inside a group, it commits with it). */
export function setMergePolicy(db: Database.Database, policy: { automerge: number; crisismerge: number }): void {
  for (const t of SEARCH_FTS_TABLES) {
    for (const [key, value] of Object.entries(policy)) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('${key}', ${value})`);
  }
}

function openWritable(file: string): Database.Database {
  const db = new Database(file);
  // SQLite's own page size, not the archive's PAGE_BYTES (server/db/page-size.ts): 16 KiB bought the search thread
  // ~6% (not the backfill's critical path), and this file is created at start, where an empty one of 16 KiB pages
  // (~0.3 MB, with a 1.5 MB log for the archive's) no longer fit on the nearly full volume of disk-full.test.ts.
  db.pragma('journal_mode = WAL');
  // As the archive: a crash loses the last commits, never the file; whatever is lost is refilled from the mark.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${SEARCH_CACHE_KB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('wal_autocheckpoint = 4000');
  db.pragma(`journal_size_limit = ${WAL_KEEP_BYTES}`);
  return db;
}

const hasSearchMeta = (db: Database.Database) => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_meta'").get() !== undefined;

function belongsTo(db: Database.Database, id: SearchDbIdentity): boolean {
  if (!hasSearchMeta(db)) return db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() === undefined; // a new, empty file
  return searchMetaValue(db, 'archive_id') === id.archiveId && searchMetaValue(db, 'schema_version') === String(SEARCH_VERSION);
}

export function searchMetaValue(db: Database.Database, key: string, schema = 'main'): string | null {
  const row = db.prepare(`SELECT value FROM ${schema}.search_meta WHERE key = ?`).get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setSearchMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO search_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** The search file's mark: events.id through which its rows are complete. */
export function indexedThrough(db: Database.Database, schema = 'main'): number {
  return Number(searchMetaValue(db, 'indexed_through', schema) ?? '0');
}

/** Deletes the search file with its write-ahead log and shared-memory index. */
export function removeSearchFiles(file: string): void {
  for (const ext of ['', '-wal', '-shm']) fs.rmSync(file + ext, { force: true });
}

const attachedInode = new WeakMap<Database.Database, number>();

/**
 * Attaches the archive's search file to a connection as `search`, so `event_text` and `event_cjk` resolve
 * unqualified (SQLite looks in main, then in attached databases); a read-only connection attaches it read-only.
 * A missing file is created empty first (its mark 0: the search thread fills it), so that search always has
 * its tables. Called again on a connection, it attaches anew when the file was deleted or replaced since (a
 * connection keeps reading a deleted file's inode). Returns false when the archive has no identity yet.
 */
export function attachSearch(db: Database.Database, archivePath: string): boolean {
  const file = searchDbPath(archivePath);
  let ino = searchFileInode(archivePath);
  if (ino !== null && attachedInode.get(db) === ino) return true;
  if (ino === null) {
    const archiveId = archiveIdOf(db);
    if (archiveId === null) return false;
    openSearchWriteDb(archivePath, { archiveId }).close();
    ino = searchFileInode(archivePath);
  }
  if (attachedInode.has(db)) {
    try {
      db.exec(`DETACH DATABASE ${SEARCH_SCHEMA}`);
    } catch {
      return true; // a statement is still reading it: the next call tries again
    }
  }
  db.prepare(`ATTACH DATABASE ? AS ${SEARCH_SCHEMA}`).run(file);
  attachedInode.set(db, ino ?? -1);
  return true;
}

/** The archive's identity (meta.archive_id, ensureSchema), which its search file carries. */
export function archiveIdOf(db: Database.Database): string | null {
  const hasMeta = db.prepare("SELECT 1 FROM main.sqlite_master WHERE name = 'meta'").get() !== undefined;
  if (!hasMeta) return null;
  const row = db.prepare("SELECT value FROM main.meta WHERE key = 'archive_id'").get() as { value: string } | undefined;
  return row?.value ?? null;
}

/** The inode of the search file on disk (to notice it was deleted or replaced), or null when it is not there. */
export function searchFileInode(archivePath: string): number | null {
  try {
    return fs.statSync(searchDbPath(archivePath)).ino;
  } catch {
    return null;
  }
}
