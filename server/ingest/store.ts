import type Database from 'better-sqlite3';
import type { NormalizedEvent } from '../../shared/log-entry';
import { failureSignature } from '../triage/signature';
import { CommitRowsCollector } from '../triage/commit-rows';
import { assistantText } from './assistant-text';
import { makeCliLinker, type CliLinker } from './cli/link-cli';
import { deflateChunksSync, lineBytesOf, type LineBytes, type PackedChunk } from './archive-chunks';
import { BatchRing } from './batch-ring';
import { forgetArchiveReads, rememberWrittenLine } from '../db/raw-lines';
import { copyKey } from './copy-key';
import { filesAndRefsOfToolCall, refsInText, type RefFound } from './derive-files-refs';
import { LINE_EVENT, type ProcessedLine } from './process-line';
import { SessionTotals, type KnownTotals } from './session-totals';
import { sessionKeyOf } from '../search-index/session-prompts';

export interface FileRow {
  id: number;
  path: string;
  workspace_dir: string | null;
  folder_session_id: string | null;
  session_id: string;
  /** 'cli': a Copilot CLI session's events.jsonl (INTEROP §3) */
  kind: 'main' | 'child' | 'legacy' | 'cli';
  label: string | null;
  dev: number | null;
  ino: number | null;
  size: number;
  offset: number;
  head_hash: string | null;
  generation: number;
  next_line: number;
  /** 1 while a file rewritten in place is matched against its archived lines (server/ingest/reconcile.ts) */
  reconciling: number;
  deleted_at: number | null;
}

/** Where a file's reading stands after a batch; committed with the batch's lines. */
export interface FileProgress {
  dev: number;
  ino: number;
  size: number;
  /** ms; which copy of a session found under two roots was written last */
  mtime: number;
  offset: number;
  headHash: string;
  generation: number;
  nextLine: number;
  /** still matching a rewritten file against its archived lines */
  reconciling: boolean;
}

export interface SessionSeed {
  id: string;
  isChild: boolean;
  parentId: string | null;
  label: string | null;
  workspaceDir: string | null;
  folderSessionId: string | null;
  /** which product wrote it; a session found through a ref is the product of the log naming it */
  source?: 'vscode' | 'cli';
}

interface SessionState {
  num: number;
  id: string;
  turnCounter: number;
  /** spanId of the request (user_message / subagent span) → its turn_index */
  turnBySpan: Map<string, number>;
  /** the latest turn is a user request: a response that names no known request answers it (Chronicle's pending message) */
  lastTurnIsRequest: boolean;
  /** the sums of its events for its refresh, when every event it has was written through this state; else null */
  totals: SessionTotals | null;
}

/**
 * A batch's lines for writeBatch: processed already (an array: tests), or processed one by one as each is
 * written. The second is the ingest's: a line's parsed entry then dies before the next line is parsed, instead
 * of a whole batch of parsed entries living through the young generation's scavenges (and being promoted).
 * Its bytes as read (LineBytes) are what the archive keeps, known before a line is processed.
 */
export interface BatchLines extends LineBytes {
  /** the line processed, processed again at each call (writeBatch calls it once per line, in order) */
  processed(i: number): ProcessedLine;
}

function batchOf(lines: readonly ProcessedLine[] | BatchLines): BatchLines {
  if (!Array.isArray(lines)) return lines as BatchLines;
  const done = lines as readonly ProcessedLine[];
  return { ...lineBytesOf(done), processed: (i) => done[i] };
}

/** Where an event's search input goes (the search feed: search-feed.ts, which says what each argument is). */
export interface SearchRows {
  add(id: number, sessionKey: number, text: string, cjk: string, said: boolean, promptParts: readonly string[]): void;
}

/**
 * Sessions whose turn state IngestStore keeps in memory, the least recently written dropped first. Every field of
 * that state is read back from the turns table when a dropped session is written again (as after a restart): kept
 * for all of them, it was the largest part of what the ingest worker kept at the end of a backfill (15.9 MB of its
 * 62 MB live heap for the 15,597 sessions of the 1.6 GiB corpus, issue 19.3), and a backfill writes one session at a time.
 */
export const MAX_CACHED_SESSIONS = 256;

/** Sessions whose sums IngestStore keeps for their refresh after dropping their turn state (~2 KB each: ≤ 5 MB). */
const MAX_EVICTED_TOTALS = 2048;

const iso = (ts: number | null): string | null => (ts === null ? null : new Date(ts).toISOString());

/** Lines a session refresh reads back from the archive (by their stored type): its start (CLI facts, lineage), a CLI shutdown (usage). */
const READ_BACK_TYPES: ReadonlySet<string> = new Set(['session_start', 'session.shutdown']);

/** The event types deriveFromEvent writes a dated row for (a model call only when it is a CLI one, with its answer). */
const DATED_TYPES = new Set(['user_message', 'agent_response', 'llm_request', 'tool_call']);

/**
 * All writes of the indexer, as prepared statements on the one write connection. A batch of lines and the
 * file's new progress commit in one transaction, so a crash or restart never writes a line twice or skips one.
 */
export class IngestStore {
  /** the triage model's rows of the open group, handed to the server after its commit (server/triage/commit-rows.ts) */
  readonly commitRows = new CommitRowsCollector();
  private sessions = new Map<string, SessionState>();
  /**
   * The sums of sessions dropped from `sessions` before their refresh: a backfill's commit group writes some
   * thousand sessions, 256 of which stay cached, and the refresh at its commit would read the others' events back.
   * Taken by that refresh (knownTotals), or by the session's state when it is cached again; capped.
   */
  private evictedTotals = new Map<string, SessionTotals>();
  /** the session id whose sessionKeyOf was computed last, and that key: a file's events are written in a row */
  private keyedSession = '';
  private sessionKey = 0;
  private nextNum: number;
  /** sessions whose facts must be recomputed (refreshSession) */
  readonly dirty = new Set<string>();
  /** the memory this writer's batches are read into and packed from (tail-file.ts) */
  readonly batchRing = new BatchRing();
  private st;
  readonly cli: CliLinker;

  /**
   * `searchRows` receives each event's search text (the search feed, server/search-index/search-feed.ts); none
   * for a rebuild of the derived tables, after which the search file catches up from the archive by itself.
   */
  constructor(
    readonly db: Database.Database,
    private readonly searchRows: SearchRows = { add: () => {} },
    private readonly maxCachedSessions = MAX_CACHED_SESSIONS,
  ) {
    this.cli = makeCliLinker(db, maxCachedSessions);
    this.nextNum = ((db.prepare('SELECT max(num) m FROM sessions').get() as { m: number | null }).m ?? 0) + 1;
    this.st = {
      fileByPath: db.prepare('SELECT * FROM files WHERE path = ?'),
      fileById: db.prepare('SELECT * FROM files WHERE id = ?'),
      insertFile: db.prepare(
        `INSERT INTO files (path, workspace_dir, folder_session_id, session_id, kind, label, first_seen, updated_at)
         VALUES (@path, @workspace_dir, @folder_session_id, @session_id, @kind, @label, @now, @now)`,
      ),
      fileProgress: db.prepare(
        `UPDATE files SET dev = @dev, ino = @ino, size = @size, mtime = @mtime, offset = @offset, head_hash = @head_hash, generation = @generation,
           next_line = @next_line, reconciling = @reconciling, events = events + @events, bad_lines = bad_lines + @bad, fragments = fragments + @fragments,
           deleted_at = NULL, error = NULL, updated_at = @now WHERE id = @id`,
      ),
      fileError: db.prepare('UPDATE files SET error = ?, updated_at = ? WHERE id = ?'),
      fileDeleted: db.prepare('UPDATE files SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL'),
      insertLine: db.prepare(
        `INSERT INTO lines (file_id, generation, line_no, byte_offset, kind, reason, chunk_id, chunk_pos, length)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertChunk: db.prepare('INSERT INTO chunks (file_id, data) VALUES (?, ?)'),
      insertEvent: db.prepare(
        `INSERT INTO events (id, session_num, file_id, type, name, span_id, parent_span_id, status, ts, dur, r_idx, model, tool,
           ttft, tokens_in, tokens_out, tokens_cached, error, dup, fail, credits_nano)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      // plucked: the file id alone, no row object per lookup (one less short-lived shape in writeEvent's hot path; it
      // did not by itself stop writeEvent's recompilations after each full collection: batch-ring.ts, heap-watch.ts)
      copyOf: db.prepare('SELECT file_id FROM copy_keys WHERE key = ?').pluck(),
      insertCopyKey: db.prepare('INSERT INTO copy_keys (key, file_id) VALUES (?, ?)'),
      sessionById: db.prepare('SELECT num FROM sessions WHERE id = ?'),
      sessionHasEvents: db.prepare('SELECT 1 FROM events WHERE session_num = ? LIMIT 1'),
      insertSession: db.prepare(
        `INSERT INTO sessions (id, num, host_type, source, is_child, parent_id, relation, label, workspace_dir, folder_session_id,
           repository, branch, cwd)
         VALUES (@id, @num, @source, @source, @is_child, @parent_id, @relation, @label, @workspace_dir, @folder_session_id,
           @repository, @branch, @cwd)`,
      ),
      workspace: db.prepare('SELECT repository, branch, folder FROM workspaces WHERE storage_dir = ?'),
      // The raw label of a ref or a child's session_start beats the one read from the file name, where Copilot
      // replaced characters such as '/' (FORMAT §2.3).
      childLink: db.prepare(
        `UPDATE sessions SET parent_id = coalesce(parent_id, @parent_id), relation = coalesce(relation, 'child'),
           label = coalesce(@label, label), parent_span_id = coalesce(parent_span_id, @parent_span_id), is_child = 1
         WHERE id = @id`,
      ),
      sessionStart: db.prepare(
        `UPDATE sessions SET copilot_version = coalesce(copilot_version, @copilot), vscode_version = coalesce(vscode_version, @vscode),
           parent_id = coalesce(parent_id, @parent), relation = coalesce(relation, CASE WHEN @parent IS NULL THEN NULL WHEN is_child = 1 THEN 'child' ELSE 'fork' END),
           label = coalesce(@label, label)
         WHERE id = @id`,
      ),
      turnCount: db.prepare('SELECT count(*) n FROM turns WHERE session_id = ?'),
      lastTurn: db.prepare('SELECT user_message IS NOT NULL request FROM turns WHERE session_id = ? ORDER BY turn_index DESC LIMIT 1'),
      // In turn order: a span id named by two turns (ids repeat after a reload) maps to the later, as in memory.
      turnSpans: db.prepare('SELECT span_id, turn_index FROM turns WHERE session_id = ? AND span_id IS NOT NULL ORDER BY turn_index'),
      insertTurn: db.prepare(
        `INSERT OR IGNORE INTO turns (session_id, turn_index, user_message, assistant_response, timestamp, span_id, event_id)
         VALUES (?, ?, ?, NULL, ?, ?, ?)`,
      ),
      appendResponse: db.prepare(
        `UPDATE turns SET assistant_response = CASE WHEN assistant_response IS NULL THEN ? ELSE assistant_response || char(10) || ? END
         WHERE session_id = ? AND turn_index = ?`,
      ),
      insertFileTouch: db.prepare(
        `INSERT OR IGNORE INTO session_files (session_id, file_path, tool_name, turn_index, first_seen_at, event_id) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      insertFileText: db.prepare('INSERT INTO file_text (rowid, file_path) VALUES (?, ?)'),
      insertRef: db.prepare(
        `INSERT OR IGNORE INTO session_refs (session_id, ref_type, ref_value, turn_index, created_at, event_id) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  fileByPath(path: string): FileRow | undefined {
    return this.st.fileByPath.get(path) as FileRow | undefined;
  }

  createFile(f: Pick<FileRow, 'path' | 'workspace_dir' | 'folder_session_id' | 'session_id' | 'kind' | 'label'>): FileRow {
    // A plain insert and a lookup: INSERT … RETURNING cost about 0.7 ms a row here (like INSERT … SELECT).
    const id = Number(this.st.insertFile.run({ ...f, now: Date.now() }).lastInsertRowid);
    return this.st.fileById.get(id) as FileRow;
  }

  markFileDeleted(fileId: number, sessionId: string): void {
    if (this.st.fileDeleted.run(Date.now(), fileId).changes > 0) this.dirty.add(sessionId);
  }

  setFileError(fileId: number, message: string | null): void {
    this.st.fileError.run(message, Date.now(), fileId);
  }

  /** The session's number, creating its row on first sight (facts are filled by refreshSession). */
  ensureSession(seed: SessionSeed): SessionState {
    const cached = this.sessions.get(seed.id);
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.sessions.delete(seed.id);
      this.sessions.set(seed.id, cached);
      return cached;
    }
    let row = this.st.sessionById.get(seed.id) as { num: number } | undefined;
    // A row created here has no turns or events yet: its turn state is known without reading them.
    const created = row === undefined;
    if (!row) {
      const num = this.nextNum++;
      const ws = seed.workspaceDir === null ? undefined : (this.st.workspace.get(seed.workspaceDir) as { repository: string | null; branch: string | null; folder: string | null } | undefined);
      this.st.insertSession.run({
        repository: ws?.repository ?? null,
        branch: ws?.branch ?? null,
        cwd: ws?.folder ?? null,
        id: seed.id,
        num,
        source: seed.source ?? 'vscode',
        is_child: seed.isChild ? 1 : 0,
        parent_id: seed.parentId,
        relation: seed.parentId ? 'child' : null,
        label: seed.label,
        workspace_dir: seed.workspaceDir,
        folder_session_id: seed.folderSessionId,
      });
      row = { num };
    }
    const turnBySpan = new Map<string, number>();
    if (!created) for (const t of this.st.turnSpans.all(seed.id) as { span_id: string; turn_index: number }[]) turnBySpan.set(t.span_id, t.turn_index);
    const state: SessionState = {
      num: row.num,
      id: seed.id,
      turnCounter: created ? 0 : (this.st.turnCount.get(seed.id) as { n: number }).n,
      turnBySpan,
      lastTurnIsRequest: !created && (this.st.lastTurn.get(seed.id) as { request: number } | undefined)?.request === 1,
      // Sums kept when this state was dropped continue; a session with events no state here has seen (written
      // before a restart, a rollback or an eviction) is summed by its refresh in SQL; one without any (new, or known
      // so far from a ref) is summed as it is written.
      totals: this.takeEvictedTotals(seed.id) ?? (created || this.st.sessionHasEvents.get(row.num) === undefined ? new SessionTotals() : null),
    };
    this.sessions.set(seed.id, state);
    if (this.sessions.size > this.maxCachedSessions) {
      const [oldest, dropped] = this.sessions.entries().next().value as [string, SessionState];
      this.sessions.delete(oldest);
      if (dropped.totals !== null && this.dirty.has(oldest) && this.evictedTotals.size < MAX_EVICTED_TOTALS) this.evictedTotals.set(oldest, dropped.totals);
    }
    return state;
  }

  /** The sums a refresh of session `id` needs, when this writer wrote every event it has (else null: SQL sums them). */
  knownTotals(id: string): KnownTotals | null {
    const cached = this.sessions.get(id);
    if (cached) return cached.totals?.known() ?? null;
    return this.takeEvictedTotals(id)?.known() ?? null;
  }

  private takeEvictedTotals(id: string): SessionTotals | null {
    const t = this.evictedTotals.get(id);
    if (t === undefined) return null;
    this.evictedTotals.delete(id);
    return t;
  }

  /** How many sessions' turn state is in memory (tests: it is bounded). */
  get cachedSessions(): number {
    return this.sessions.size;
  }

  /** Forget cached per-session state (after a rebuild of the derived tables, or a rolled-back group). */
  resetCaches(): void {
    this.sessions.clear();
    this.evictedTotals.clear();
    this.cli.reset();
    forgetArchiveReads(this.db); // and its chunks, whose ids the next group's chunks take again
    this.nextNum = ((this.db.prepare('SELECT max(num) m FROM sessions').get() as { m: number | null }).m ?? 0) + 1;
  }

  /**
   * Writes one batch of a file: archive lines, derived events, search text, turns, files and refs, and the
   * file's progress, in one transaction. `lineNos` are the lines' physical line numbers; `chunks` their bytes
   * deflated (tail-file.ts passes every batch's: on the libuv pool when read ahead, else on this thread into its
   * batch ring's slot), else deflated here (tests, an empty batch).
   */
  writeBatch(
    file: FileRow,
    lineSource: readonly ProcessedLine[] | BatchLines,
    progress: FileProgress,
    lineNos: number[],
    chunks?: PackedChunk[],
  ): { events: number; sessionIds: Set<string> } {
    const lines = batchOf(lineSource);
    const packed = chunks ?? deflateChunksSync(lines);
    const sessionIds = new Set<string>();
    let events = 0;
    let bad = 0;
    let fragments = 0;
    const write = () => {
      const fileSession = this.ensureSession(this.seedFor(file));
      const placed = this.writeChunks(file.id, lines, packed);
      for (let i = 0; i < lines.length; i++) {
        const l = lines.processed(i);
        const at = placed[i];
        const info = this.st.insertLine.run(file.id, progress.generation, lineNos[i], l.byteOffset, l.kind, l.reason, at.chunkId, at.pos, l.bytes.length);
        if (l.kind !== LINE_EVENT || l.event === null) {
          if (l.kind === 2) fragments++;
          else bad++;
          continue;
        }
        const id = Number(info.lastInsertRowid);
        this.writeEvent(id, file, fileSession, l);
        events++;
      }
      sessionIds.add(fileSession.id);
      this.dirty.add(fileSession.id);
      this.st.fileProgress.run({
        id: file.id,
        dev: progress.dev,
        ino: progress.ino,
        size: progress.size,
        mtime: progress.mtime,
        offset: progress.offset,
        head_hash: progress.headHash,
        generation: progress.generation,
        next_line: progress.nextLine,
        reconciling: progress.reconciling ? 1 : 0,
        events,
        bad,
        fragments,
        now: Date.now(),
      });
    };
    // Inside the indexer's group transaction the group is the unit of atomicity (it is rolled back whole and
    // its files read again on a failure): a savepoint per batch would copy every page it first touches.
    if (this.db.inTransaction) write();
    else this.db.transaction(write)();
    return { events, sessionIds };
  }

  /** Derives an archived line again (rebuild after a schema change); the archive row already exists. */
  rederive(lineId: number, file: FileRow, line: ProcessedLine): void {
    const session = this.ensureSession(this.seedFor(file));
    this.writeEvent(lineId, file, session, line);
  }

  /** Inserts the batch's deflated chunks (`deflateChunks`) and says where each line landed. */
  private writeChunks(fileId: number, lines: BatchLines, chunks: PackedChunk[]): { chunkId: number; pos: number }[] {
    const placed: { chunkId: number; pos: number }[] = new Array(lines.length);
    let next = 0;
    for (const c of chunks) {
      if (c.start !== next || c.end > lines.length) throw new Error(`archive chunks do not match the batch's lines (line ${next}, chunk ${c.start}–${c.end} of ${lines.length})`);
      const chunkId = Number(this.st.insertChunk.run(fileId, c.data).lastInsertRowid);
      let pos = 0;
      for (let i = c.start; i < c.end; i++) {
        placed[i] = { chunkId, pos };
        pos += lines.lengthOf(i);
      }
      next = c.end;
    }
    if (next !== lines.length) throw new Error(`archive chunks do not match the batch's lines (${next} of ${lines.length} placed)`);
    return placed;
  }

  seedFor(file: FileRow): SessionSeed {
    return {
      id: file.session_id,
      isChild: file.kind === 'child',
      parentId: file.kind === 'child' ? file.folder_session_id : null,
      label: file.label,
      workspaceDir: file.workspace_dir,
      folderSessionId: file.folder_session_id,
      source: file.kind === 'cli' ? 'cli' : 'vscode',
    };
  }

  private writeEvent(id: number, file: FileRow, session: SessionState, l: ProcessedLine): void {
    const ev = l.event?.cli ? this.cli.link(session.num, l.event, id) : (l.event as NormalizedEvent);
    let dup = 0;
    // CLI events carry UUIDs and are never copied into other sessions (INTEROP §3).
    const key = ev.cli ? null : copyKey(ev);
    if (key !== null) {
      const first = this.st.copyOf.get(key) as number | undefined;
      if (first !== undefined) dup = first === file.id ? 2 : 1;
      else this.st.insertCopyKey.run(key, file.id);
    }
    const type = ev.type === 'unknown' ? ev.rawType || 'unknown' : ev.type;
    const status = ev.status === 'error' ? 1 : 0;
    const fail = failureSignature(ev);
    this.st.insertEvent.run(
      id, session.num, file.id, type, ev.name, ev.spanId, ev.parentSpanId,
      status, ev.ts, ev.dur, ev.rIdx, ev.model, ev.tool, ev.ttft, ev.tokensIn, ev.tokensOut,
      ev.tokensCached, ev.error, dup, fail, ev.creditsNano,
    );
    this.commitRows.add(id, type, ev.name, ev.model, ev.tool, status, ev.ts, ev.dur, ev.ttft, ev.tokensIn, ev.tokensOut, ev.tokensCached, session.num, fail, dup);
    // read back by this group's refresh (the CLI facts, the lineage): kept so that it is not inflated again
    if (READ_BACK_TYPES.has(type)) rememberWrittenLine(this.db, id, l.bytes);
    if (dup === 2) return; // a repeat inside one file: archived, but derived facts already have it
    session.totals?.add({ id, type, model: ev.model, status: ev.status === 'error' ? 1 : 0, ts: ev.ts, dur: ev.dur, tokensIn: ev.tokensIn, tokensOut: ev.tokensOut, tokensCached: ev.tokensCached, creditsNano: ev.creditsNano });
    // The trigram index and the prompt strings' rows are written by the search thread, which commits them after
    // this group (search-writer.ts, session-prompts.ts).
    if (l.text !== '' || l.cjk !== '' || l.promptParts.length > 0) {
      if (session.id !== this.keyedSession) {
        this.keyedSession = session.id;
        this.sessionKey = sessionKeyOf(session.id);
      }
      this.searchRows.add(id, this.sessionKey, l.text, l.cjk, l.said, l.promptParts);
    }
    this.deriveFromEvent(id, file, session, ev);
  }

  private deriveFromEvent(id: number, file: FileRow, session: SessionState, ev: NormalizedEvent): void {
    const a = ev.attrs;
    // ISO text only for the rows that keep it (turns, files, refs): toISOString was ~1.5% of a backfill's ingest thread.
    const when = DATED_TYPES.has(ev.type) && (ev.type !== 'llm_request' || ev.cli) ? iso(ev.ts) : null;
    switch (ev.type) {
      case 'session_start': {
        const parent =
          typeof a.parentSessionId === 'string'
            ? a.parentSessionId
            : typeof a.parentSession === 'string'
              ? a.parentSession
              : typeof a.detachedFromSpawningParentSessionId === 'string' && a.detachedFromSpawningParentSessionId !== ''
                ? a.detachedFromSpawningParentSessionId
                : null;
        this.st.sessionStart.run({
          id: session.id,
          copilot: typeof a.copilotVersion === 'string' ? a.copilotVersion : null,
          vscode: typeof a.vscodeVersion === 'string' ? a.vscodeVersion : null,
          parent: parent === session.id ? null : parent,
          label: typeof a.label === 'string' ? a.label : null,
        });
        break;
      }
      case 'child_session_ref': {
        const childId = typeof a.childSessionId === 'string' ? a.childSessionId : null;
        if (childId && childId !== session.id) {
          // A child's log sits in its parent's folder: it shares the parent's workspace (repository, branch).
          this.ensureSession({
            id: childId,
            isChild: true,
            parentId: session.id,
            label: typeof a.label === 'string' ? a.label : ev.name,
            workspaceDir: file.workspace_dir,
            folderSessionId: file.folder_session_id,
          });
          this.st.childLink.run({ id: childId, parent_id: session.id, label: typeof a.label === 'string' ? a.label : ev.name, parent_span_id: ev.parentSpanId });
          this.dirty.add(childId);
        }
        break;
      }
      case 'user_message': {
        // Chronicle's reindex: attrs.content, else attrs.userRequest (FORMAT §5.5)
        const content = typeof a.content === 'string' ? a.content : typeof a.userRequest === 'string' ? a.userRequest : '';
        const turn = session.turnCounter++;
        session.lastTurnIsRequest = true;
        if (ev.spanId) session.turnBySpan.set(ev.spanId, turn);
        this.st.insertTurn.run(session.id, turn, content, when, ev.spanId, id);
        this.insertRefs(session, refsInText(content), turn, when, id);
        break;
      }
      case 'agent_response': {
        const text = assistantText(a.response);
        if (text === null) {
          // Unparseable (cut at 5,000 characters): the turn's text stays NULL as in Chronicle, and no turn is
          // opened for it; the refs in what is left still count.
          const turn = this.requestTurn(session, ev.parentSpanId);
          this.insertRefs(session, refsInText(typeof a.response === 'string' ? a.response : ''), turn, when, id);
          break;
        }
        if (text === '') break; // tool calls only: Chronicle writes no turn text for them
        const turn = this.turnFor(session, ev.parentSpanId, when, id);
        this.st.appendResponse.run(text, text, session.id, turn);
        this.insertRefs(session, refsInText(text), turn, when, id);
        break;
      }
      case 'llm_request': {
        // A CLI model call carries its answer (assistant.message content); a debug log writes it as agent_response.
        if (!ev.cli || typeof a.content !== 'string' || a.content === '') break;
        const turn = this.turnFor(session, ev.parentSpanId, when, id);
        this.st.appendResponse.run(a.content, a.content, session.id, turn);
        this.insertRefs(session, refsInText(a.content), turn, when, id);
        break;
      }
      case 'tool_call': {
        const { files, refs } = filesAndRefsOfToolCall(ev);
        const turn = this.currentTurn(session, ev.parentSpanId);
        for (const f of files) {
          const touch = this.st.insertFileTouch.run(session.id, f.path, f.tool, turn, when, id);
          if (touch.changes > 0) this.st.insertFileText.run(touch.lastInsertRowid, f.path);
        }
        this.insertRefs(session, refs, turn, when, id);
        break;
      }
      default:
        break;
    }
  }

  private insertRefs(session: SessionState, refs: RefFound[], turn: number | null, when: string | null, id: number): void {
    for (const r of refs) this.st.insertRef.run(session.id, r.type, r.value, turn, when, id);
  }

  private currentTurn(session: SessionState, parentSpanId: string | null): number | null {
    if (parentSpanId !== null) {
      const t = session.turnBySpan.get(parentSpanId);
      if (t !== undefined) return t;
    }
    return session.turnCounter > 0 ? session.turnCounter - 1 : null;
  }

  /**
   * The user request a response answers: the one its parentSpanId names, else the latest request when the
   * latest turn is one (a parentSpanId evicted from the writer's span map, or none: Chronicle pairs a response
   * with the pending user message, FORMAT §5.5), else null.
   */
  private requestTurn(session: SessionState, parentSpanId: string | null): number | null {
    if (parentSpanId !== null) {
      const t = session.turnBySpan.get(parentSpanId);
      if (t !== undefined) return t;
    }
    return session.lastTurnIsRequest ? session.turnCounter - 1 : null;
  }

  /** The turn a response belongs to; a request with no user_message (a subagent's) gets a turn of its own. */
  private turnFor(session: SessionState, parentSpanId: string | null, when: string | null, id: number): number {
    const request = this.requestTurn(session, parentSpanId);
    if (request !== null) return request;
    const turn = session.turnCounter++;
    session.lastTurnIsRequest = false;
    if (parentSpanId !== null) session.turnBySpan.set(parentSpanId, turn);
    this.st.insertTurn.run(session.id, turn, null, when, parentSpanId, id);
    return turn;
  }
}
