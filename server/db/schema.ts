import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { SLOW_MS } from '../../shared/triage-terms';
import { inferBackfillRuns } from './infer-backfill-runs';

/**
 * Version of the archive's layout. The archive is never migrated in place: a database with another layout is
 * emptied and every log is read again (what Copilot already deleted is lost, so change this rarely).
 */
export const ARCHIVE_VERSION = 2;

/**
 * Version of the derived tables. Bump it whenever a derived table or the way it is filled changes: a database
 * with another version gets its derived tables dropped and rebuilt from the archive (never a hand-written
 * migration of derived data). The archive tables are append-only facts about the files and are never dropped.
 * The search file has a version of its own (SEARCH_VERSION, server/search-index/search-db.ts).
 */
export const SCHEMA_VERSION = 23;

/** The archive: every line ever read, raw, with where it came from. The source of truth inside the database. */
export const ARCHIVE_DDL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS workspaces (
  id INTEGER PRIMARY KEY, storage_dir TEXT NOT NULL UNIQUE, workspace_id TEXT, kind TEXT, uri TEXT,
  folder TEXT, folder_exists INTEGER, repository TEXT, remote_url TEXT, branch TEXT, error TEXT, updated_at INTEGER
);
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, workspace_dir TEXT, folder_session_id TEXT,
  session_id TEXT NOT NULL, kind TEXT NOT NULL, label TEXT,
  dev INTEGER, ino INTEGER, size INTEGER NOT NULL DEFAULT 0, mtime INTEGER, offset INTEGER NOT NULL DEFAULT 0, head_hash TEXT,
  generation INTEGER NOT NULL DEFAULT 0, next_line INTEGER NOT NULL DEFAULT 1, reconciling INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0, bad_lines INTEGER NOT NULL DEFAULT 0, fragments INTEGER NOT NULL DEFAULT 0,
  deleted_at INTEGER, first_seen INTEGER, updated_at INTEGER, error TEXT
);
-- A session's files (its main log and child logs), read on every refresh of the session: without it each
-- refresh scanned the whole table, which made a backfill quadratic in the number of files.
CREATE INDEX IF NOT EXISTS files_session ON files (session_id);
-- files.reconciling = 1: the file was rewritten in place and has not yet grown past what the archive holds of it;
-- its new lines are matched against the archived ones first (server/ingest/reconcile.ts).
-- Raw lines live in chunks: consecutive lines of one file concatenated and deflated (about 64 KB before
-- compression). JSON lines compress about 8x together but poorly one by one, and the archive is the largest table.
CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, data BLOB NOT NULL);
-- kind: 0 event, 1 bad line, 2 fragment (the cut first line of a rewritten file). A line's bytes are
-- chunk_pos .. chunk_pos + length of its chunk, inflated.
CREATE TABLE IF NOT EXISTS lines (
  id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, generation INTEGER NOT NULL, line_no INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL, kind INTEGER NOT NULL, reason TEXT,
  chunk_id INTEGER NOT NULL, chunk_pos INTEGER NOT NULL, length INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS lines_file ON lines (file_id);
CREATE INDEX IF NOT EXISTS lines_problems ON lines (file_id, line_no) WHERE kind > 0;
-- The line ids each backfill gave, whole sessions newest first (every other id follows time): the order a budgeted
-- read takes to see the newest lines first (server/db/id-order.ts). Part of the archive, as the ids are. An archive
-- written before it gets its first backfill's run read back from its lines (server/db/infer-backfill-runs.ts).
CREATE TABLE IF NOT EXISTS backfill_runs (lo INTEGER PRIMARY KEY, hi INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS companions (
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, session_id TEXT NOT NULL, name TEXT NOT NULL,
  kind TEXT NOT NULL, n INTEGER, content TEXT, size INTEGER, mtime INTEGER, deleted_at INTEGER, at_line INTEGER
);
-- A Copilot CLI session's metadata and usage companions, read on every refresh of the session (cli-session-facts.ts).
CREATE INDEX IF NOT EXISTS companions_session ON companions (session_id, kind);
`;

/** Derived tables: rebuilt from the archive. Chronicle's tables keep its column names and meanings (FORMAT §5.2). */
export const DERIVED_DDL = `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT,
  agent_name TEXT, agent_description TEXT, created_at TEXT, updated_at TEXT,
  num INTEGER NOT NULL UNIQUE, title TEXT, parent_id TEXT, parent_span_id TEXT, relation TEXT, label TEXT,
  is_child INTEGER NOT NULL DEFAULT 0, workspace_dir TEXT, folder_session_id TEXT, log_deleted INTEGER NOT NULL DEFAULT 0,
  first_ts INTEGER, last_ts INTEGER, event_count INTEGER NOT NULL DEFAULT 0, error_count INTEGER NOT NULL DEFAULT 0,
  tokens_in INTEGER NOT NULL DEFAULT 0, tokens_out INTEGER NOT NULL DEFAULT 0, tokens_cached INTEGER NOT NULL DEFAULT 0,
  credits_nano INTEGER, credited_calls INTEGER NOT NULL DEFAULT 0,
  model_ms INTEGER NOT NULL DEFAULT 0, models TEXT, counts TEXT, copilot_version TEXT, vscode_version TEXT,
  child_count INTEGER NOT NULL DEFAULT 0, slowest_event INTEGER, refreshed_at INTEGER,
  -- which product wrote the session: 'vscode' (debug logs) or 'cli' (Copilot CLI events.jsonl, INTEROP §3);
  -- host_type says the same in Chronicle's terms. usage_complete: 0 for a CLI session without session.shutdown
  -- (running or crashed), whose input, cache and credit totals are unknown; 1 otherwise.
  source TEXT NOT NULL DEFAULT 'vscode', usage_complete INTEGER NOT NULL DEFAULT 1,
  -- what session_text holds for the session (NULL: no row yet), so that a refresh rewrites that row only when it changed
  meta_text TEXT
);
CREATE INDEX idx_sessions_repo ON sessions (repository);
CREATE INDEX idx_sessions_cwd ON sessions (cwd);
CREATE INDEX idx_sessions_last ON sessions (last_ts);
CREATE INDEX idx_sessions_parent ON sessions (parent_id);
-- The sessions of one folder (a main log and its child logs): span ids are matched only among them (they collide
-- across folders, FORMAT §10.2).
CREATE INDEX idx_sessions_folder ON sessions (folder_session_id);
CREATE TABLE turns (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions (id), turn_index INTEGER NOT NULL,
  user_message TEXT, assistant_response TEXT, timestamp TEXT, span_id TEXT, event_id INTEGER,
  UNIQUE (session_id, turn_index)
);
CREATE INDEX idx_turns_session ON turns (session_id);
CREATE TABLE checkpoints (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions (id), checkpoint_number INTEGER NOT NULL,
  title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT,
  created_at TEXT, UNIQUE (session_id, checkpoint_number)
);
CREATE INDEX idx_checkpoints_session ON checkpoints (session_id);
CREATE TABLE session_files (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions (id), file_path TEXT NOT NULL,
  tool_name TEXT, turn_index INTEGER, first_seen_at TEXT, event_id INTEGER, UNIQUE (session_id, file_path)
);
CREATE INDEX idx_session_files_path ON session_files (file_path);
CREATE TABLE session_refs (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions (id), ref_type TEXT NOT NULL,
  ref_value TEXT NOT NULL, turn_index INTEGER, created_at TEXT, event_id INTEGER, UNIQUE (session_id, ref_type, ref_value)
);
CREATE INDEX idx_session_refs_type_value ON session_refs (ref_type, ref_value);
-- Chronicle's FTS table, same columns and default tokenizer, one row per turn, so its documented queries run.
CREATE VIRTUAL TABLE search_index USING fts5 (content, session_id UNINDEXED, source_type UNINDEXED, source_id UNINDEXED);

-- One row per archived event line (id = lines.id). status: 0 ok, 1 error.
-- dup: 0 canonical; 1 a replay or broadcast copy of an event already in another file (FORMAT §4.4, §4.9):
-- shown in its session, never counted in a cross-session statistic; 2 a repeat within the same file: hidden.
-- A copy is the whole entry again (server/ingest/copy-key.ts), never a (spanId, type) match: span ids collide.
CREATE TABLE events (
  id INTEGER PRIMARY KEY, session_num INTEGER NOT NULL, file_id INTEGER NOT NULL, type TEXT NOT NULL, name TEXT,
  span_id TEXT, parent_span_id TEXT, status INTEGER NOT NULL, ts INTEGER, dur INTEGER NOT NULL, r_idx INTEGER NOT NULL,
  model TEXT, tool TEXT, ttft INTEGER, tokens_in INTEGER, tokens_out INTEGER, tokens_cached INTEGER, error TEXT,
  dup INTEGER NOT NULL DEFAULT 0, fail TEXT, credits_nano INTEGER
);
CREATE INDEX events_session_ts ON events (session_num, ts);
-- Across sessions, by time or duration, only the slow calls (FORMAT §6: dur > 5000, the slow list's default) and
-- the errors are indexed: an index of every event by ts or dur takes each insert to a random page of a B-tree as
-- large as the corpus (0.5 and 0.8 µs an event of a backfill at 0.25× the bench corpus, a sixth of the insert,
-- ~1 µs an event together, bench/run.ts notes); any other threshold or filter is answered by the triage model's columns.
CREATE INDEX events_dur ON events (dur) WHERE dur > ${SLOW_MS} AND dup = 0;
CREATE INDEX events_slow_ts ON events (ts) WHERE dur > ${SLOW_MS} AND dup = 0;
CREATE INDEX events_errors ON events (ts) WHERE status = 1 AND dup = 0;
-- Usage counts requests (canonical user messages) over a window.
CREATE INDEX events_requests ON events (ts) WHERE type = 'user_message' AND dup = 0;
-- The first file holding each whole entry the writer copies (copyKey): a line whose key is here is a copy.
CREATE TABLE copy_keys (key INTEGER PRIMARY KEY, file_id INTEGER NOT NULL);
-- Triage (issue 5). fail: the failure signature (server/triage/signature.ts, computed at ingest because hook
-- resultKind and discovery skip reasons live in attrs, not in columns); NULL when the event is not a failure.
CREATE INDEX events_fail ON events (fail, ts) WHERE fail IS NOT NULL AND dup = 0;
-- Usage (issue 17): canonical model calls by start time, for token and credit totals over a window.
CREATE INDEX events_model_calls ON events (ts) WHERE type = 'llm_request' AND dup = 0;

-- Substring search over event text (event_text, event_cjk) and the prompts model calls were sent (prompt_docs,
-- prompt_text, prompt_cjk; SCHEMA_VERSION 23 took prompt_docs out of the archive) lives in the search file beside
-- the archive (server/search-index/search-db.ts), written by a thread of its own and attached by every reader.
-- Companion files' text (system_prompt_N.json, tools_N.json; server/ingest/companions.ts), rowid = companions.id:
-- the text is stored once, in the archive's companions.content.
CREATE VIRTUAL TABLE companion_text USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1);
CREATE VIRTUAL TABLE companion_cjk USING fts5 (text, tokenize = 'unicode61', content = '', contentless_delete = 1);
-- Session titles and other session-level text, rowid = sessions.num.
CREATE VIRTUAL TABLE session_text USING fts5 (text, tokenize = 'trigram', content = '', contentless_delete = 1);
-- Paths a session touched (session_files.file_path), rowid = session_files.id, for search by path and file:.
-- Paths are parsed out of tool args (JSON-unescaped: Windows backslashes, \\u escapes), so they are not always
-- substrings of the indexed event text. External content: the path is stored once, in session_files.
CREATE VIRTUAL TABLE file_text USING fts5 (file_path, content = 'session_files', content_rowid = 'id', tokenize = 'trigram');

-- Lineage (issue 6): one row per session that has a parent, derived by server/lineage/derive-edges.ts when the
-- session is refreshed. kind: 'child' (a child log: subagent, title, summarize…), 'fork' (a main log whose
-- session_start names a parent), 'continuation' (the same, written by a resumed run, rIdx > 0). source says which
-- fact chose the parent: 'tool_span' (the session holding the tool call that started it; nested subagents),
-- 'session_start', 'child_ref' (the session whose log holds the child_session_ref), 'folder' (the child log's folder).
CREATE TABLE session_edges (
  child_id TEXT PRIMARY KEY, parent_id TEXT NOT NULL, kind TEXT NOT NULL, label TEXT, tool_span_id TEXT, tool_name TEXT,
  source TEXT NOT NULL, created_ts INTEGER
);
CREATE INDEX session_edges_parent ON session_edges (parent_id, created_ts, child_id);
-- A child's start: the ref naming it (span_id child-ref-<id>, one per child, sought by span id alone) and the tool
-- call its start span is, sought in one session of its folder at a time (span ids are counters that collide across
-- sessions, FORMAT §10.2). Session first: a backfill writes a session's tool calls together, so their entries land
-- side by side at the index's end; keyed by span id first (one index for both, until SCHEMA_VERSION 19) every
-- insert went to the part of the index holding that counter value, ~1.7 µs per event at 1.6 GiB against ~0.1.
CREATE INDEX events_child_ref ON events (span_id) WHERE type = 'child_session_ref';
CREATE INDEX events_tool_span ON events (session_num, span_id) WHERE type = 'tool_call';
-- The other way: the children a session's tool calls started (the ref's and the subagent entry's parentSpanId),
-- read per session of the folder.
-- Conditions are ORs of equalities, never IN lists: the planner takes a partial index only when the query implies
-- its condition, and \`type = 'hook.start'\` implies an OR of equalities but not an IN list (the lookups then read
-- the session's whole index); and SQLite evaluates an IN list at every INSERT through a temporary table, even of
-- two values (~0.7 µs per event of a backfill for two types; schema.test.ts).
CREATE INDEX events_start_span ON events (session_num, parent_span_id) WHERE type = 'subagent' OR type = 'child_session_ref';
-- Copilot CLI sessions (INTEROP §3): a completion finds its start and a model call its turn start by span id in
-- its session (server/ingest/cli/link-cli.ts), once per line, so a lookup must not scan the session.
CREATE INDEX events_cli_spans ON events (session_num, span_id)
  WHERE type = 'tool.execution_start' OR type = 'subagent.started' OR type = 'hook.start' OR type = 'turn_start';
-- What every refresh reads of a session besides its totals: its session_start and subagent lines (lineage:
-- derive-edges.ts; a CLI session's start, cli-session-facts.ts) and a CLI session's latest shutdown, each without
-- reading the session's other events; in id order (the key is session_num, then the rowid).
CREATE INDEX events_session_marks ON events (session_num) WHERE type = 'session_start' OR type = 'session.shutdown' OR type = 'subagent';
`;

/**
 * Indexes of derived tables added after their SCHEMA_VERSION, which need no rebuild: created on every open that
 * lacks them (IF NOT EXISTS; ~50 ms on the 1.6 GiB bench archive) and after each rebuild.
 *
 * The session titles and touched paths that hold a character outside printable ASCII. A 1–2 character CJK term,
 * which trigrams cannot answer, is looked for in those alone (server/search/side-hits.ts): a quarter of the titles
 * and 7% of the paths of the bench corpus, where a `盘` search read every title (9.9 → 4.0 ms) and every path
 * (5.3 → 0.5 ms). The conditions are repeated word for word by the queries (the planner takes a partial index only
 * when the query implies its condition).
 */
export const NON_ASCII_TITLE = `coalesce(title, '') || ' ' || coalesce(label, '') GLOB '*[^ -~]*'`;
export const NON_ASCII_PATH = `file_path GLOB '*[^ -~]*'`;
/**
 * What a search's title match reads of each session it names (side-hits.ts metaHits): a covering index, so that
 * joining its matches reads this narrow index instead of the sessions' wide rows. On the bench archive 956 of 19,189
 * sessions name "Reconnect": that join 4.2 → 2.0 ms in process. The planner prefers the unique index on num, so the
 * query names this one (INDEXED BY), and falls back when an archive written before it lacks it.
 */
export const SESSION_TITLES_INDEX = 'sessions_titles';
const LATER_INDEXES_DDL = `
CREATE INDEX IF NOT EXISTS sessions_non_ascii ON sessions (num) WHERE ${NON_ASCII_TITLE};
CREATE INDEX IF NOT EXISTS session_files_non_ascii ON session_files (id) WHERE ${NON_ASCII_PATH};
CREATE INDEX IF NOT EXISTS ${SESSION_TITLES_INDEX} ON sessions (num, id, title, label);
`;

/**
 * Every derived table, dropped on a rebuild. `event_text` and `event_cjk` moved to the search file (SCHEMA_VERSION
 * 17), `prompt_text` and `prompt_cjk` too (21), and `prompt_docs` (23): they stay listed so that an older database
 * loses them from the archive.
 */
export const DERIVED_TABLES = [
  'session_edges',
  'companion_cjk',
  'companion_text',
  'prompt_cjk',
  'prompt_text',
  'prompt_docs',
  'file_text',
  'session_text',
  'event_cjk',
  'event_text',
  'copy_keys',
  'events',
  'search_index',
  'session_refs',
  'session_files',
  'checkpoints',
  'turns',
  'sessions',
];

export function getMeta(db: Database.Database, key: string): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

/** Whether the connection's main database has a table or index of this name. */
export function schemaHas(db: Database.Database, name: string): boolean {
  return db.prepare('SELECT 1 FROM main.sqlite_master WHERE name = ?').get(name) !== undefined;
}

/** Whether the table has the column (an archive written before ADDED_ARCHIVE_COLUMNS added it has not). */
export function schemaHasColumn(db: Database.Database, table: string, column: string): boolean {
  return db.prepare('SELECT 1 FROM pragma_table_info(?) WHERE name = ?').get(table, column) !== undefined;
}

function getMetaIfAny(db: Database.Database, key: string): string | null {
  return schemaHas(db, 'meta') ? getMeta(db, key) : null;
}

export function setMeta(db: Database.Database, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/**
 * Creates the archive if missing and makes the derived tables match SCHEMA_VERSION.
 * Returns true when the derived tables were (re)created and must be refilled from the archive.
 */
/** Drops and recreates the derived tables, empty; marks them for a rebuild when the archive has lines to derive. */
export function recreateDerived(db: Database.Database): void {
  db.transaction(() => {
    // main. : on a connection with the search file attached, an unqualified event_text would name search.event_text.
    for (const t of DERIVED_TABLES) db.exec(`DROP TABLE IF EXISTS main.${t}`);
    db.exec(DERIVED_DDL);
    db.exec(LATER_INDEXES_DDL);
    setMeta(db, 'schema_version', String(SCHEMA_VERSION));
    // an older archive's numbering of its prompt_docs, which the search file's prompt rows followed until 23
    db.prepare("DELETE FROM meta WHERE key = 'prompt_docs_epoch'").run();
    // Until rebuildDerived refills them, whoever opens the database next (the ingest worker after the server's
    // setup connection, say) must know the derived tables are empty.
    const archived = db.prepare('SELECT 1 FROM lines LIMIT 1').get() !== undefined;
    setMeta(db, 'derived_state', archived ? 'empty' : 'ready');
  })();
}

/** Meta key: the archive's backfill runs are to be read back from its events once a rebuild has refilled them. */
const RUNS_PENDING = 'backfill_runs_pending';

function recordInferredRuns(db: Database.Database): void {
  const insert = db.prepare('INSERT INTO backfill_runs (lo, hi) VALUES (?, ?)');
  db.transaction(() => inferBackfillRuns(db).forEach((r) => insert.run(r.lo, r.hi)))();
}

/**
 * After a rebuild has refilled the derived tables: the backfill runs of an archive written before backfill_runs
 * whose events were empty when the table was added (ensureSchema), read back from the events now.
 */
export function inferPendingBackfillRuns(db: Database.Database): void {
  if (getMetaIfAny(db, RUNS_PENDING) === null) return;
  db.transaction(() => {
    recordInferredRuns(db);
    db.prepare('DELETE FROM meta WHERE key = ?').run(RUNS_PENDING);
  })();
}

/** True when the derived tables were recreated and not refilled yet (ensureSchema ran in another connection). */
export function derivedNeedRebuild(db: Database.Database): boolean {
  return getMetaIfAny(db, 'derived_state') === 'empty';
}

/**
 * Columns added to archive tables after ARCHIVE_VERSION 2 shipped. Adding a column with a constant default is a
 * change of the schema text only (no row is rewritten), so the archive keeps what Copilot already deleted.
 */
const ADDED_ARCHIVE_COLUMNS: { table: string; column: string; ddl: string }[] = [
  { table: 'files', column: 'reconciling', ddl: 'reconciling INTEGER NOT NULL DEFAULT 0' },
  // The file's mtime at its last read: which copy of a session found under two roots was written last.
  { table: 'files', column: 'mtime', ddl: 'mtime INTEGER' },
  // The last line id the archive held when the companion was first stored: its place among the lines, so that a
  // capped read of the companions' index takes the newest first as the lines' are (prompt-hits.ts). It never
  // decreases with the companion's id; NULL (before any line) for the rows of an archive written before it.
  { table: 'companions', column: 'at_line', ddl: 'at_line INTEGER' },
];

function addArchiveColumns(db: Database.Database): void {
  for (const c of ADDED_ARCHIVE_COLUMNS) {
    if (!schemaHasColumn(db, c.table, c.column)) db.exec(`ALTER TABLE ${c.table} ADD COLUMN ${c.ddl}`);
  }
}

export function ensureSchema(db: Database.Database): boolean {
  const archive = Number(getMetaIfAny(db, 'archive_version') ?? '0');
  const hasArchive = schemaHas(db, 'lines');
  if (hasArchive && archive !== ARCHIVE_VERSION) {
    db.transaction(() => {
      for (const t of [...DERIVED_TABLES, 'backfill_runs', 'lines', 'chunks', 'files', 'companions', 'workspaces', 'meta']) db.exec(`DROP TABLE IF EXISTS main.${t}`);
    })();
  }
  // an archive written before backfill_runs: its first backfill's order is read back from the lines themselves
  const runsUnrecorded = hasArchive && archive === ARCHIVE_VERSION && !schemaHas(db, 'backfill_runs');
  db.exec(ARCHIVE_DDL);
  addArchiveColumns(db);
  if (runsUnrecorded) {
    // read from the derived events as they are; when they are empty or half refilled (a rebuild was interrupted),
    // from them once the rebuild has refilled them (inferPendingBackfillRuns)
    if (schemaHas(db, 'events') && !derivedNeedRebuild(db)) recordInferredRuns(db);
    else setMeta(db, RUNS_PENDING, '1');
  }
  setMeta(db, 'archive_version', String(ARCHIVE_VERSION));
  // Which archive this is: its search file carries the same id, and a search file of another archive (this one
  // moved aside as damaged and created again) is discarded (server/search-index/search-db.ts).
  if (getMeta(db, 'archive_id') === null) setMeta(db, 'archive_id', randomUUID());
  const version = Number(getMeta(db, 'schema_version') ?? '0');
  const hasSessions = schemaHas(db, 'sessions');
  if (version === SCHEMA_VERSION && hasSessions) {
    db.exec(LATER_INDEXES_DDL);
    return false;
  }
  recreateDerived(db);
  return true;
}
