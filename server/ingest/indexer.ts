import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { BackfillProgress, BackfillShare } from '../../shared/api';
import { isCorruption } from '../db/damaged-index';
import { forgetWrittenLines, lastLineId } from '../db/raw-lines';
import { recordBackfillRun } from '../db/id-order';
import { planBackfill } from './backfill-order';
import { markCompanionDeleted, storeCompanion } from './companions';
import { readWorkspaceInfo, resolveRoot, watchTargets, workspaceOfDebugLogs, type LogRoot, type WorkspaceLogs } from './discover';
import { diskFullMessage, isDiskFull, RetryBackoff, Sleeper } from './disk-full';
import { FolderWatch } from './folder-watch';
import { TreeWatch } from './tree-watch';
import { MissingRoots } from './missing-roots';
import { isInteresting, isLogsDir, listLogFiles, listLogFilesBelow, logFoldersBelow } from './log-folders';
import { classifyAgentHostUsagePath, classifyCliPath, classifyLogPath } from './log-paths';
import { AGENT_HOST_USAGE, SESSION_STATE, workspaceOfAgentHostUsage, workspaceOfSessionState } from './discover/layout';
import { foldWriteAheadLogSoon, LogRestart } from '../db/write-ahead-log';
import { makeSessionRefresher } from './refresh-session';
import { traceStartup } from './startup-trace';
import { IngestStore } from './store';
import { InlineSearchFeed, type SearchFeed } from '../search-index/search-feed';
import type { SearchWriterStatus } from '../search-index/search-writer';
import { tailFile, type FileIdentity } from './tail-file';
import { releaseCommitRowChunks, type CommitRows } from '../triage/commit-rows';
import { releaseReadBuffer } from './read-lines';

export interface IndexerEvents {
  indexed(sessionIds: string[], events: number): void;
  progress(p: BackfillProgress): void;
  roots(roots: LogRoot[]): void;
  /** SQLite found the index damaged: indexing stopped; the server moves the file aside and starts over */
  damaged(cause: string): void;
  /** the database cannot grow (disk full): writes wait and retry; null once a commit succeeded again */
  paused(reason: string | null): void;
  /** where the search file stands (its mark, the archive's, and why it is behind) */
  search(status: SearchWriterStatus): void;
  /** the triage model's rows of a commit, as written, right after it (server/triage/commit-rows.ts) */
  triageRows(rows: CommitRows): void;
}

export interface IndexerOptions {
  roots: string[];
  watch: boolean;
  /** ms between two refreshes of the same dirty sessions while data keeps arriving */
  refreshEveryMs?: number;
  /**
   * On a full disk, wait and retry until space is back (the server's worker, the default); false throws the
   * error after rolling back (`chronoscope index` and the query commands, which report it and exit).
   */
  waitForSpace?: boolean;
  /**
   * Where each event's search text goes (server/search-index/): the search thread in the server and `chronoscope
   * index`; by default the same writer on this thread (tests), closed by stop().
   */
  search?: SearchFeed;
}

/** How long a commit group may stay open, live and during a backfill (see groupMs). */
const LIVE_GROUP_MS = 200;
const FIRST_BACKFILL_GROUP_MS = 1000;
const BACKFILL_GROUP_MS = 5000;
/** How long writes must succeed after a full disk before the pause is reported over. */
const RESUME_CONFIRM_MS = 2000;
/** A group also commits after this many bytes of logs, bounding the transaction's memory and the redo after a crash. */
const GROUP_MAX_BYTES = 64 * 1024 * 1024;

/** Hands work back to the event loop between batches so that watcher events and messages are handled. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Finds, reads and watches every debug-log file under the roots and keeps the database in step with them.
 * Runs inside the ingest worker (it owns the only write connection); `runOnce` serves `chronoscope index`.
 */
export class Indexer {
  private store: IngestStore;
  private refresh: (id: string) => void;
  private tree: TreeWatch | null = null;
  private folders: FolderWatch | null = null;
  private missingRoots: MissingRoots | null = null;
  /** what a watcher event does with a file: queue it and drain (set by startWatcher) */
  private enqueue: (p: string) => void = () => {};
  private queue = new Set<string>();
  private workspaceOfLogs = new Map<string, WorkspaceLogs>(); // debugLogsDir → workspace
  private running = false;
  private stopped = false;
  private cancelFold: () => void = () => {};
  private lastRefresh = 0;
  private pendingSessions = new Set<string>();
  private pendingEvents = 0;
  private lastNotify = 0;
  private idleResolvers: (() => void)[] = [];
  private backoff = new RetryBackoff();
  private sleeper = new Sleeper();
  /** the disk-full message while writes are paused */
  private pausedReason: string | null = null;
  private resumeTimer: NodeJS.Timeout | undefined;
  /** attempts that failed on a full disk (tests bound it over a time window: no spinning) */
  diskFullAttempts = 0;
  readonly progress: BackfillProgress = { state: 'starting', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
  roots: LogRoot[] = [];

  constructor(
    private db: Database.Database,
    private opts: IndexerOptions,
    private events: Partial<IndexerEvents> = {},
  ) {
    this.ownsSearch = opts.search === undefined;
    this.search = opts.search ?? new InlineSearchFeed(db.name, (s) => this.events.search?.(s));
    this.store = new IngestStore(db, this.search);
    this.refresh = makeSessionRefresher(db, (id) => this.store.knownTotals(id));
    this.lastEventId = db.prepare('SELECT max(id) FROM events').pluck();
    this.logRestart = new LogRestart(db);
  }

  /** A commit that left the archive's log long makes the next group let it restart first (write-ahead-log.ts). */
  private logRestart: LogRestart;

  private search: SearchFeed;
  private ownsSearch: boolean;
  private lastEventId: Database.Statement;

  /** Discover, backfill everything, then (when watching) follow changes until stop(). */
  async start(): Promise<void> {
    const { listed, targets } = await this.listRoots();
    await this.whileDiskFull(() => this.markVanishedFiles(listed));
    traceStartup('vanished files marked');
    this.queueBackfill(listed);
    // Every log folder is watched before the backfill reads a file of it, so nothing written meanwhile is missed.
    if (this.opts.watch) this.watchLogFolders();
    const drained = this.drain(true);
    if (this.opts.watch) {
      // The tree watcher (new workspaces, profiles and debug-logs folders, deleted folders) lists the folders above
      // the log folders when it starts: nothing this week's sessions need, so not before they are read.
      await Promise.race([this.recentRead, drained.catch(() => {})]);
      await this.watchTree(targets, listed);
    }
    // Nothing needs the listing once the tree watcher has compared against it; held by this frame, it kept every
    // path of the backfill (and the plan, every file's entry) in the ingest worker until the end (issue 19.3).
    listed.clear();
    await drained;
    traceStartup('backfill done');
    this.progress.state = 'idle';
    this.backfillRunLo = null;
    for (const p of [this.progress, this.progress.recent, this.progress.older]) {
      if (!p) continue;
      p.filesDone = p.filesTotal;
      p.bytesDone = p.bytesTotal;
    }
    this.shareOf.clear();
    this.emitProgress();
    // Fold the backfill's write-ahead log into the database file, so the disk holds one copy of the index; a
    // reader in the way (a query) makes it try again shortly. After the backfill is reported done, not before: the
    // index is complete without it, and the first try copies what the search thread's checkpoints have not yet
    // (the last group or two) on this thread.
    this.cancelFold = foldWriteAheadLogSoon(this.db);
    traceStartup('write-ahead log fold tried (a reader in the way: tried again later)');
  }

  /** Every log file under the roots, and the folders the tree watcher follows. */
  private async listRoots(): Promise<{ listed: Set<string>; targets: string[] }> {
    const initial: string[] = [];
    const targets: string[] = [];
    for (const input of this.opts.roots) {
      const { root, workspaces } = await resolveRoot(input);
      traceStartup(`resolved ${input}: ${workspaces.length} log folders`);
      this.roots.push(root);
      for (const w of workspaces) {
        await this.whileDiskFull(() => this.registerWorkspace(w));
        initial.push(...listLogFiles(w.debugLogsDir));
      }
      traceStartup(`listed ${input}: ${initial.length} files so far`);
      const own = watchTargets(root, workspaces);
      if (this.opts.watch && (!root.exists || (root.error !== null && own.length === 0))) this.watchForRoot(root.path);
      targets.push(...own);
    }
    this.events.roots?.(this.roots);
    return { listed: new Set(initial), targets };
  }

  /** Plans the backfill (backfill-order.ts) and queues its files; only the progress keeps the plan's shares. */
  private queueBackfill(listed: Set<string>): void {
    const plan = planBackfill(
      [...listed].flatMap((f) => {
        const st = safeStat(f);
        return st ? [{ path: f, size: st.size, mtimeMs: st.mtimeMs }] : [];
      }),
    );
    traceStartup(`planned: ${plan.recent.filesTotal} files this week, ${plan.older.filesTotal} older`);
    this.progress.state = 'running';
    this.progress.filesTotal = plan.files.length;
    this.progress.bytesTotal = plan.recent.bytesTotal + plan.older.bytesTotal;
    this.progress.recent = plan.recent;
    this.progress.older = plan.older;
    for (const f of plan.files) this.shareOf.set(f.path, { share: f.recent ? plan.recent : plan.older, size: f.size, counted: 0 });
    if (plan.recent.filesTotal === 0) this.markRecentRead();
    this.emitProgress();
    for (const f of plan.files) this.queue.add(f.path);
  }

  /**
   * Lets go of the buffers kept for the next batch (the batch ring, the read buffer, the triage rows' chunks, ~13 MB
   * after a backfill): for a worker that has been idle a while (worker.ts). Whatever comes next allocates them again.
   */
  releaseBuffers(): void {
    this.store.batchRing.release();
    releaseReadBuffer();
    releaseCommitRowChunks();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelFold();
    this.sleeper.wake();
    clearTimeout(this.resumeTimer);
    this.missingRoots?.close();
    for (const t of this.settleTimers.values()) clearTimeout(t);
    this.folders?.close();
    this.tree?.close();
    if (this.ownsSearch) await this.search.close();
  }

  /** Resolves once search holds every committed event (`chronoscope index` waits for it before it exits). */
  async whenSearchCaughtUp(): Promise<void> {
    await this.search.whenIndexed(this.committedThrough());
  }

  private committedThrough(): number {
    return lastLineId(this.db);
  }

  private maxEventId(): number {
    return (this.lastEventId.get() as number | null) ?? 0;
  }

  /** Resolves when the queue is empty and every dirty session is refreshed (tests, `index`). */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleResolvers.push(resolve));
  }

  private async registerWorkspace(w: WorkspaceLogs): Promise<void> {
    if (this.workspaceOfLogs.has(w.debugLogsDir)) return;
    const info = await readWorkspaceInfo(w.storageDir);
    this.db
      .prepare(
        `INSERT INTO workspaces (storage_dir, workspace_id, kind, uri, folder, folder_exists, repository, remote_url, branch, error, updated_at)
         VALUES (@storageDir, @workspaceId, @kind, @uri, @folder, @folderExists, @repository, @remoteUrl, @branch, @error, @now)
         ON CONFLICT (storage_dir) DO UPDATE SET workspace_id = excluded.workspace_id, kind = excluded.kind, uri = excluded.uri,
           folder = excluded.folder, folder_exists = excluded.folder_exists, repository = excluded.repository,
           remote_url = excluded.remote_url, branch = excluded.branch, error = excluded.error, updated_at = excluded.updated_at`,
      )
      .run({ ...info, folderExists: info.folderExists ? 1 : 0, now: Date.now() });
    // Only once its row is written: a write refused by a full disk is tried again.
    this.workspaceOfLogs.set(w.debugLogsDir, w);
  }

  /** Files the archive knows that are gone from disk: their rows stay, their sessions show "log deleted". */
  private markVanishedFiles(present: Set<string>): void {
    const known = this.db.prepare('SELECT id, path, session_id FROM files WHERE deleted_at IS NULL').all() as { id: number; path: string; session_id: string }[];
    for (const f of known) {
      if (!present.has(f.path) && !fs.existsSync(f.path)) this.store.markFileDeleted(f.id, f.session_id);
    }
    this.refreshDirty();
  }

  private debugLogsDirOf(file: string): string | null {
    let dir = path.dirname(file);
    for (let i = 0; i < 2; i++) {
      if (this.workspaceOfLogs.has(dir)) return dir;
      dir = path.dirname(dir);
    }
    // A debug-logs folder that appeared after start (a new workspace): adopt it.
    const m = file.split(path.sep);
    const at = Math.max(m.lastIndexOf('debug-logs'), m.lastIndexOf(SESSION_STATE), m.lastIndexOf(AGENT_HOST_USAGE));
    return at > 0 ? m.slice(0, at + 1).join(path.sep) : null;
  }

  private identityOf(file: string): FileIdentity | 'companion' | null {
    const logs = this.debugLogsDirOf(file);
    if (!logs) return null;
    const ws = this.workspaceOfLogs.get(logs);
    const c =
      ws?.agentHostUsage || path.basename(logs) === AGENT_HOST_USAGE
        ? classifyAgentHostUsagePath(logs, file)
        : ws?.cli || path.basename(logs) === SESSION_STATE
          ? classifyCliPath(logs, file)
          : classifyLogPath(logs, file);
    if (c.kind === 'ignored') return null;
    if (c.kind === 'companion') {
      storeCompanion(this.db, file, c);
      // a CLI session's metadata and usage are facts of the session (refresh-session.ts), whenever they arrive
      if (c.companion === 'cli_workspace' || c.companion === 'cli_vscode_metadata' || c.companion === 'agent_host_usage') this.store.dirty.add(c.folderSessionId);
      return 'companion';
    }
    return {
      path: file,
      workspace_dir: ws?.storageDir ?? path.dirname(logs),
      folder_session_id: c.folderSessionId,
      session_id: c.sessionId,
      kind: c.kind,
      label: c.label,
    };
  }

  /**
   * Files processed since the open transaction began. Files are committed together (see groupMs and
   * GROUP_MAX_BYTES) instead of one commit per file: commits, not parsing, dominated a backfill of many small sessions.
   */
  private group: { files: string[]; started: number; bytes: number; events: number; firstLine: number } | null = null;
  /** The first line id this backfill gave (its run in backfill_runs), null before its first group and after it. */
  private backfillRunLo: number | null = null;
  /** The backfill's files not yet finished: the part of the progress ("this week" or older) each counts in, its listed size and the bytes counted so far. */
  private shareOf = new Map<string, { share: BackfillShare; size: number; counted: number }>();
  private backfillCommits = 0;
  private tracedWeekDone = false;
  private markRecentRead: () => void = () => {};
  /** resolves once this week's files are read and committed (at once when there are none) */
  private recentRead = new Promise<void>((resolve) => (this.markRecentRead = resolve));

  /**
   * How long a group may stay open. Live, the queue empties and the group commits at once, so an append is
   * visible as soon as it is read. During a backfill, the first group commits within a second (the newest
   * sessions become searchable at once), later ones every few seconds: each commit flushes the trigram index's
   * pending terms as a new segment that must be merged later, and rewrites the pages every group touches.
   * 1 s → 5 s with a 16 MB FTS hash took a 700 MB backfill from 77 s to 64 s.
   */
  private groupMs(): number {
    // Just after a full disk: commit each file, so that the pause ends (and is reported ended) at once.
    if (this.backoff.waiting) return 0;
    if (this.progress.state !== 'running') return LIVE_GROUP_MS;
    return this.backfillCommits === 0 ? FIRST_BACKFILL_GROUP_MS : BACKFILL_GROUP_MS;
  }

  private beginGroup(): void {
    if (this.group && this.db.inTransaction) return;
    this.db.exec('BEGIN');
    this.group = { files: [], started: Date.now(), bytes: 0, events: 0, firstLine: lastLineId(this.db) + 1 };
    if (this.events.triageRows) this.store.commitRows.begin(this.maxEventId());
  }

  /** Commits the group, then tells the server: a reader notified before the commit would not see the rows. */
  private commitGroup(): void {
    this.refreshDirty();
    let through: number | undefined;
    if (this.db.inTransaction) {
      if (this.group && this.progress.state === 'running') {
        // Whole sessions newest first: the search reads this run's ids upwards (server/db/id-order.ts).
        const lo = this.backfillRunLo ?? this.group.firstLine;
        const hi = lastLineId(this.db);
        if (hi >= lo) {
          recordBackfillRun(this.db, lo, hi);
          this.backfillRunLo = lo;
        }
      }
      this.db.exec('COMMIT');
      if (this.store.commitRows.active) {
        const rows = this.store.commitRows.take(this.maxEventId(), Number(this.db.pragma('schema_version', { simple: true })));
        if (rows) this.events.triageRows?.(rows);
      }
      this.logRestart.afterCommit();
      through = this.committedThrough();
      this.search.committed(through);
      if (this.progress.state === 'running') {
        this.backfillCommits++;
        const { recent } = this.progress;
        if (recent && recent.filesDone <= recent.filesTotal && this.tracedWeekDone === false) {
          traceStartup(`commit ${this.backfillCommits}: this week ${recent.filesDone}/${recent.filesTotal} files, ${(recent.bytesDone / 1e6).toFixed(1)} MB`);
          this.tracedWeekDone = recent.filesDone === recent.filesTotal;
        }
      }
      this.resumeIfPaused();
    } else this.store.commitRows.discard();
    this.group = null;
    this.notify(through);
  }

  /** Rolls the open group back (SQLite may already have, on a full disk) and queues its files, and `file`, again. */
  private abandonGroup(file?: string): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } catch {
      /* already rolled back by SQLite */
    }
    this.search.rolledBack();
    this.store.commitRows.discard();
    if (this.group) {
      for (const f of this.group.files) this.queue.add(f);
      this.pendingEvents -= this.group.events;
    }
    if (file !== undefined) this.queue.add(file);
    this.group = null;
    this.store.resetCaches();
  }

  /** Runs a write; on a full disk rolls back, reports the pause and tries again after a growing delay. */
  private async whileDiskFull<T>(write: () => T | Promise<T>): Promise<T> {
    for (;;) {
      try {
        const r = await write();
        // A write inside the open group proves nothing until that group commits.
        if (!this.db.inTransaction) this.resumeIfPaused();
        return r;
      } catch (err) {
        if (!isDiskFull(err)) throw err;
        this.abandonGroup();
        await this.waitForSpace(err);
      }
    }
  }

  private async waitForSpace(err: unknown): Promise<void> {
    if (this.opts.waitForSpace === false || this.stopped) throw err;
    this.diskFullAttempts++;
    clearTimeout(this.resumeTimer);
    const reason = diskFullMessage(this.db.name, err);
    if (reason !== this.pausedReason) {
      this.pausedReason = reason;
      this.events.paused?.(reason);
    }
    await this.sleeper.sleep(this.backoff.next());
  }

  /**
   * After a write that reached the disk. On a disk with a little room one small commit fits and the next fails:
   * the pause is reported over only once no write failed for RESUME_CONFIRM_MS, so health does not flicker.
   */
  private resumeIfPaused(): void {
    this.backoff.reset();
    if (this.pausedReason === null) return;
    clearTimeout(this.resumeTimer);
    this.resumeTimer = setTimeout(() => this.endPause(), RESUME_CONFIRM_MS);
  }

  private endPause(): void {
    clearTimeout(this.resumeTimer);
    if (this.pausedReason === null) return;
    this.pausedReason = null;
    this.events.paused?.(null);
  }

  private async drain(backfill: boolean): Promise<void> {
    if (this.running) return;
    this.running = true;
    // A backfill finishes a file read in several passes before the next one (the plan's order is whole sessions
    // newest first); live, a file with more to read goes to the back of the queue, so one busy file cannot starve others.
    let unfinished: string | null = null;
    let failed = false;
    try {
      while (!this.stopped) {
        const file = unfinished ?? (this.queue.values().next().value as string | undefined);
        unfinished = null;
        try {
          if (file === undefined) {
            this.commitGroup();
            if (this.queue.size > 0) continue;
            // Everything queued is committed: a pause that the last writes ended is over now.
            if (!this.backoff.waiting) this.endPause();
            break;
          }
          this.queue.delete(file);
          unfinished = await this.indexFile(file, backfill);
          // Stopped while the file's batch awaited its deflate: the search feed is closed too (its rows roll back
          // with the group, read again next time), so nothing may be flushed into it.
          if (this.stopped) break;
          // The search thread is behind by more than its in-flight bound: wait (memory, issue 19.3).
          await this.search.room();
        } catch (err) {
          // Only a full disk gets here (indexFile handles a file's own failures): every file would fail alike.
          failed = true;
          if (!isDiskFull(err)) throw err;
          this.abandonGroup(file);
          await this.waitForSpace(err);
          failed = false;
          continue;
        }
        await yieldToLoop();
      }
    } catch (err) {
      if (!isCorruption(err)) throw err;
      // Nothing more can be written to this file; what was read is read again into the new index.
      this.stopped = true;
      this.events.damaged?.(err instanceof Error ? err.message : String(err));
    } finally {
      if (this.db.inTransaction) {
        try {
          this.db.exec('ROLLBACK');
        } catch {
          /* already rolled back by SQLite */
        }
        this.search.rolledBack();
        this.store.resetCaches();
      }
      this.group = null;
      this.running = false;
      // After a failure thrown to the caller (a one-shot index on a full disk), nothing more is tried.
      if (!failed && this.queue.size > 0 && !this.stopped) void this.drain(false);
      else for (const r of this.idleResolvers.splice(0)) r();
    }
  }

  /**
   * Bytes count up to the size the listing saw: a file that grew since is not more than 100% of itself, and a
   * finished file counts whole (companions are stored, not tailed; a partial last line waits for its newline), so
   * a part that is done reads done in bytes too.
   */
  private countBackfillBytes(file: string, bytes: number): void {
    const f = this.shareOf.get(file);
    if (!f) return; // not a file of the backfill's listing (a live append, a file created since)
    const add = Math.min(bytes, f.size - f.counted);
    f.counted += add;
    f.share.bytesDone += add;
    this.progress.bytesDone += add;
  }

  /** Counts a listed file as done once; true when it was the last of this week's. */
  private countBackfillFileDone(file: string): boolean {
    const f = this.shareOf.get(file);
    if (!f) return false;
    this.countBackfillBytes(file, f.size - f.counted);
    this.shareOf.delete(file);
    f.share.filesDone++;
    this.progress.filesDone++;
    return f.share === this.progress.recent && f.share.filesDone === f.share.filesTotal;
  }

  /** Reads one file into the open group and commits the group when it is due; returns it when a backfill must read on. */
  private async indexFile(file: string, backfill: boolean): Promise<string | null> {
    const logs = this.debugLogsDirOf(file);
    if (logs && !this.workspaceOfLogs.has(logs)) {
      const name = path.basename(logs);
      await this.registerWorkspace(
        name === SESSION_STATE ? workspaceOfSessionState(logs) : name === AGENT_HOST_USAGE ? workspaceOfAgentHostUsage(logs) : workspaceOfDebugLogs(logs),
      );
    }
    if (!this.db.inTransaction) await this.logRestart.beforeWrite(() => this.stopped);
    this.beginGroup();
    const g = this.group!;
    const identity = this.identityOf(file);
    let weekDone = false;
    let readOn: string | null = null;
    if (identity && identity !== 'companion') {
      try {
        const out = await tailFile(this.store, identity, undefined, () => this.stopped);
        if (this.stopped) return null; // nothing more is written: the open group is rolled back
        g.files.push(file);
        g.bytes += out.bytes;
        g.events += out.events;
        this.pendingEvents += out.events;
        for (const s of out.sessionIds) this.pendingSessions.add(s);
        this.countBackfillBytes(file, out.bytes);
        if (out.more) {
          if (backfill) readOn = file;
          else this.queue.add(file);
        } else weekDone = this.countBackfillFileDone(file);
      } catch (err) {
        if (isDiskFull(err) || isCorruption(err)) throw err;
        weekDone = this.countBackfillFileDone(file);
        // A failed batch may have written part of itself: the group is the unit of atomicity, so roll it
        // back whole and read its other files again; this file's error is recorded.
        this.abandonGroup();
        this.reportIoProblem(file, err);
      }
    } else {
      weekDone = this.countBackfillFileDone(file);
    }
    const open = this.group;
    // This week's sessions complete: commit now, so that what the progress says is done is searchable.
    if (!open || weekDone || Date.now() - open.started >= this.groupMs() || open.bytes > GROUP_MAX_BYTES) this.commitGroup();
    if (weekDone) this.markRecentRead();
    return readOn;
  }

  private reportIoProblem(file: string, err: unknown): void {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return; // deleted between the event and the read: recorded as deleted
    const row = this.store.fileByPath(file);
    if (row) this.store.setFileError(row.id, err instanceof Error ? err.message : String(err));
  }

  private refreshDirty(): void {
    this.lastRefresh = Date.now();
    if (this.store.dirty.size === 0) return;
    const ids = [...this.store.dirty];
    this.store.dirty.clear();
    const refreshAll = () => {
      for (const id of ids) this.refresh(id);
    };
    if (this.db.inTransaction) refreshAll();
    else this.db.transaction(refreshAll)();
    forgetWrittenLines(this.db); // read back by these refreshes: a later one of a session inflates its chunk
    for (const id of ids) this.pendingSessions.add(id);
  }

  /**
   * Tells the server which sessions changed. After a commit through line `through`, only once the search thread
   * has committed through it too: a client told "indexed" must find the new lines in search.
   */
  private notify(through?: number): void {
    this.lastNotify = Date.now();
    if (this.progress.state === 'running') this.emitProgress();
    if (this.pendingSessions.size === 0) return;
    const sessions = [...this.pendingSessions];
    const events = this.pendingEvents;
    this.pendingSessions.clear();
    this.pendingEvents = 0;
    if (through === undefined) this.events.indexed?.(sessions, events);
    else void this.search.whenIndexed(through).then(() => this.events.indexed?.(sessions, events));
  }

  private emitProgress(): void {
    const { recent, older } = this.progress;
    this.events.progress?.({ ...this.progress, ...(recent && older ? { recent: { ...recent }, older: { ...older } } : {}) });
  }

  /** A root that is not there yet: once it is, read it and watch it like the others (the server says so in health). */
  private watchForRoot(rootPath: string): void {
    this.missingRoots ??= new MissingRoots((p) => void this.adoptRoot(p).catch(() => {}));
    this.missingRoots.add(rootPath);
  }

  private async adoptRoot(input: string): Promise<void> {
    // Twice: folders created between the first look and the watcher being ready raise no event.
    for (let look = 0; look < 2 && !this.stopped; look++) {
      const { root, workspaces } = await resolveRoot(input);
      this.roots = this.roots.map((r) => (r.path === root.path ? root : r));
      if (look === 0) this.events.roots?.(this.roots);
      for (const w of workspaces) await this.whileDiskFull(() => this.registerWorkspace(w));
      // A folder just created is often still empty: watch it whole until its layout shows.
      const targets = watchTargets(root, workspaces);
      if (look === 0) this.watchFolders(targets.length > 0 ? targets : [root.path]);
      for (const w of workspaces) {
        for (const f of logFoldersBelow(w.debugLogsDir)) this.folders?.watch(f);
        listLogFiles(w.debugLogsDir).forEach(this.enqueue);
      }
    }
  }

  /** One fs.watch per log folder known now (synchronous: a few ms per thousand folders). */
  private watchLogFolders(): void {
    const enqueue = (this.enqueue = (p: string) => {
      this.queue.add(p);
      void this.drain(false);
      this.scheduleSettleCheck(p);
    });
    this.folders = new FolderWatch(
      (file) => this.onFileEvent(file, enqueue),
      (folder) => listLogFilesBelow(folder).forEach(enqueue),
    );
    for (const logs of this.workspaceOfLogs.keys()) for (const f of logFoldersBelow(logs)) this.folders.watch(f);
    traceStartup(`fs.watch on ${this.folders.size} log folders`);
  }

  /**
   * Follows the roots' folder trees, then looks at them once more: a workspace or session folder created after
   * the listing and before the tree watcher's first walk reached it raised no event (the start-up walk reports
   * nothing: the listing read what was there), so its files and folders are read and watched now. A file of the listing is not queued
   * again: the log folders' watches have seen whatever happened to it since.
   */
  private async watchTree(targets: string[], listed: Set<string>): Promise<void> {
    if (this.stopped) return;
    this.watchFolders(targets);
    traceStartup(`tree watcher ready on ${targets.length} targets (${this.tree?.size ?? 0} folders)`);
    for (const input of this.opts.roots) {
      if (this.stopped) return;
      const { workspaces } = await resolveRoot(input);
      for (const w of workspaces) {
        await this.whileDiskFull(() => this.registerWorkspace(w));
        for (const f of logFoldersBelow(w.debugLogsDir)) this.folders?.watch(f);
        for (const f of listLogFiles(w.debugLogsDir)) if (!listed.has(f)) this.enqueue(f);
      }
    }
  }

  /**
   * Follows the folder tree under `targets` (synchronous: a readdir per tree folder, which stops at the logs
   * folders; the files inside them and their session folders are followed by `folders`: see FolderWatch for why).
   */
  private watchFolders(targets: string[]): void {
    if (targets.length === 0) return;
    this.tree ??= new TreeWatch({
      addDir: (p) => this.followFolder(p, this.enqueue),
      unlinkDir: (p) => this.onFolderGone(p),
      followed: (logs) => this.folders?.has(logs) ?? false,
    });
    for (const t of targets) {
      // A logs folder target is FolderWatch's; its parent is watched for the folder's deletion.
      if (isLogsDir(t)) this.tree.addParentOf(t);
      else this.tree.add(t, false);
    }
  }

  /** A followed folder went away: its files are marked deleted; created again before this ran, it is followed afresh. */
  private onFolderGone(p: string): void {
    this.folders?.unwatch(p);
    this.onUnlinkDir(p);
    if (fs.existsSync(p)) this.followFolder(p, this.enqueue);
  }

  /** A file in a watched log folder changed, appeared or went away (a rename over it is all three). */
  private onFileEvent(file: string, enqueue: (p: string) => void): void {
    if (!isInteresting(file)) return;
    const st = safeStat(file);
    if (st === null) {
      if (this.folders?.has(file)) this.onFolderGone(file); // a session folder deleted
      else this.onUnlink(file);
    } else if (st.isFile()) enqueue(file);
    else if (st.isDirectory()) this.followFolder(file, enqueue); // a session folder created in a debug-logs folder
  }

  /**
   * A new session folder or workspace: watch its log folders and read its files, which may have been written
   * before the watch began. A folder created again under a watched path is a new inode that the old watcher
   * does not see, so it is always watched afresh.
   */
  private followFolder(dir: string, enqueue: (p: string) => void): void {
    this.folders?.unwatch(dir);
    // Listed twice: a session folder created after the first listing, before its logs folder was watched, raised
    // no event and is in the second; one created later raises one.
    for (let look = 0; look < 2; look++) for (const f of logFoldersBelow(dir)) this.folders?.watch(f);
    for (const f of listLogFilesBelow(dir)) enqueue(f);
  }

  private settleTimers = new Map<string, NodeJS.Timeout>();

  /**
   * One more look at a file shortly after its last change event: the watcher coalesces rapid changes to one
   * path (an append landing while the previous one is read would otherwise wait for the next write). This is
   * a single deferred check per burst of events, not polling: an unchanged file is never looked at again.
   */
  private scheduleSettleCheck(p: string): void {
    clearTimeout(this.settleTimers.get(p));
    this.settleTimers.set(
      p,
      setTimeout(() => {
        this.settleTimers.delete(p);
        if (this.stopped) return;
        this.queue.add(p);
        void this.drain(false);
      }, 250),
    );
  }

  private onUnlink(p: string): void {
    // Stopped while the disk was full: the next start marks it (markVanishedFiles).
    this.whileDiskFull(() => this.markUnlinked(p)).catch(() => {});
  }

  private markUnlinked(p: string): void {
    const row = this.store.fileByPath(p);
    if (row) this.store.markFileDeleted(row.id, row.session_id);
    else markCompanionDeleted(this.db, p);
    this.refreshDirty();
    this.notify();
  }

  private onUnlinkDir(dir: string): void {
    this.whileDiskFull(() => this.markUnlinkedDir(dir)).catch(() => {});
  }

  private markUnlinkedDir(dir: string): void {
    const prefix = dir + path.sep;
    const rows = this.db.prepare('SELECT id, session_id, path FROM files WHERE deleted_at IS NULL AND substr(path, 1, ?) = ?').all(prefix.length, prefix) as {
      id: number;
      session_id: string;
    }[];
    for (const r of rows) this.store.markFileDeleted(r.id, r.session_id);
    this.db.prepare('UPDATE companions SET deleted_at = ? WHERE deleted_at IS NULL AND substr(path, 1, ?) = ?').run(Date.now(), prefix.length, prefix);
    this.refreshDirty();
    this.notify();
  }
}

function safeStat(f: string): fs.Stats | null {
  try {
    return fs.statSync(f);
  } catch {
    return null;
  }
}
