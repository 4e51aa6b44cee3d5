import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { isCorruption, moveAside } from '../db/damaged-index';
import { openReadDb } from '../db/open';
import { foldWriteAheadLog } from '../db/write-ahead-log';
import { compactionDue, FtsCompaction } from '../db/fts-compaction';
import { derivedNeedRebuild } from '../db/schema';
import { lastLineId, rawLines, type RawLineReader } from '../db/raw-lines';
import { diskFullMessage, isDiskFull } from '../ingest/disk-full';
import { lineFormatOf, LINE_EVENT, processLine } from '../ingest/process-line';
import { archiveIdOf, indexedThrough, LIVE_MERGE_CONFIG, openSearchWriteDb, SEARCH_FTS_TABLES, searchDbPath, searchMetaValue, setMergePolicy, setSearchMeta } from './search-db';
import type { SearchRow } from './search-feed';
import { sessionKeyOf, SessionPrompts } from './session-prompts';
import { trimMalloc } from '../memory/malloc-trim';

/**
 * Writes the search file (search-db.ts) from two sources, and keeps these invariants:
 *
 * 1. Rows are committed only for events the archive has committed: live rows (`add`) wait in the open
 *    transaction until the ingest says "committed through N" (`commit`), and a group the ingest rolled back
 *    (`rollback`: disk full, a failed batch, indexer.ts abandonGroup) is rolled back here too. So the search
 *    file never runs ahead of the archive, and `indexed_through` = N is committed with the rows.
 * 2. Every event with id <= the mark that has text has its rows, once: a live row at or below the mark is one the
 *    catch-up already read from the archive, and is dropped.
 * 3. Catch-up: at start and after any failure of the search file (full disk: retried; damaged: moved aside;
 *    deleted or replaced: created again), every event past the mark is read back from the archive (the archived
 *    line inflated and run through processLine, as ingest does; `dup = 2` repeats get no text, as in
 *    store.ts writeEvent). Until it has caught up, live rows are dropped (the archive has them once committed).
 * 4. Prompt strings get their rows (prompt_docs, prompt_text, prompt_cjk) here, from live rows and catch-up alike,
 *    event by event in id order (session-prompts.ts), committed with the event rows under the same mark.
 * 5. Once a backfill has settled, the FTS5 tables are merged into one segment each (`compact`, fts-compaction.ts)
 *    when they grew enough since the last merge (`merged_through`), a step at a time between live groups.
 */
export interface SearchWriterStatus {
  /** events.id through which search is complete */
  indexedThrough: number;
  /** the archive's last committed line id this writer was told of */
  archiveThrough: number;
  /** why search is behind for now (disk full, damaged file moved aside), or null */
  problem: { kind: 'disk_full' | 'corrupt'; reason: string } | null;
  /**
   * SQLite's error when a read of the archive met a damaged page (a catch-up reads archived lines the ingest may
   * never read again): the archive must be moved aside and rebuilt, which the ingest's owner does (worker.ts,
   * index-once.ts). Null while the archive reads fine.
   */
  archiveDamage: string | null;
}

/** A read of the archive failed on a damaged page: the archive's damage, not the search file's (guard). */
class ArchiveDamagedError extends Error {
  readonly code = 'SQLITE_CORRUPT';
}

interface ArchivedEvent {
  id: number;
  /** the session id of the event's file: its prompt strings' session (sessionKeyOf) */
  session_id: string;
  kind: string;
}

/** Events read from the archive per catch-up transaction: each commit moves the mark, and health with it. */
const CATCH_UP_EVENTS = 20_000;

export class SearchWriter {
  private db!: Database.Database;
  private archive: Database.Database;
  private raw: RawLineReader;
  private insertText!: Database.Statement;
  private insertCjk!: Database.Statement;
  private insertPromptDoc!: Database.Statement;
  private insertPromptText!: Database.Statement;
  private insertPromptCjk!: Database.Statement;
  private readonly prompts = new SessionPrompts({
    insertDoc: (sessionKey, hash, eventId) => {
      const r = this.insertPromptDoc.run(sessionKey, hash, eventId);
      return r.changes === 0 ? null : Number(r.lastInsertRowid);
    },
    insertText: (doc, text, cjk) => {
      this.insertPromptText.run(doc, text);
      if (cjk !== '') this.insertPromptCjk.run(doc, cjk);
    },
  });
  private ino: number | null = null;
  private mark = 0;
  /** the archive's last committed line id we know of: what a catch-up must reach */
  private archiveThrough = 0;
  /**
   * Live rows are dropped: some rows of the group being written were lost (a failure, a thread started again),
   * so the whole group is read from the archive once it commits, and live rows are trusted again after that.
   */
  private dropLiveRows = true;
  /** a failure (full disk) left search behind: the owner calls catchUp again after a delay */
  private failed = false;
  private problem: SearchWriterStatus['problem'] = null;
  private archiveDamage: string | null = null;
  private readonly eventsToIndex: Database.Statement;
  private compaction: FtsCompaction | null = null;

  constructor(
    private readonly archivePath: string,
    private readonly onStatus: (s: SearchWriterStatus) => void = () => {},
  ) {
    // The archive through a read-only connection of its own, without the search file attached.
    this.archive = openReadDb(archivePath, { search: false });
    this.raw = rawLines(this.archive);
    this.eventsToIndex = this.archive.prepare(
      `SELECT e.id, f.session_id, f.kind FROM events e JOIN files f ON f.id = e.file_id WHERE e.id > ? AND e.id <= ? AND e.dup != 2 ORDER BY e.id LIMIT ?`,
    );
    try {
      this.open();
    } catch (err) {
      // A search file whose header or schema is damaged fails already here: aside with it, and a new one.
      if (!isCorruption(err)) throw err;
      this.reopen(err instanceof Error ? err.message : String(err));
    }
    try {
      this.archiveThrough = this.archiveMax();
    } catch (err) {
      // a damaged archive: the catch-up that follows meets it again and says so (guard)
      if (!(err instanceof ArchiveDamagedError)) throw err;
    }
  }

  get status(): SearchWriterStatus {
    return { indexedThrough: this.mark, archiveThrough: this.archiveThrough, problem: this.problem, archiveDamage: this.archiveDamage };
  }

  /** Rows of the group being written by the ingest (not committed there yet), in the order it wrote them. */
  add(rows: readonly SearchRow[]): void {
    if (this.dropLiveRows) return;
    this.guard(() => {
      if (!this.db.inTransaction) this.db.exec('BEGIN');
      for (const r of rows) if (r.id > this.mark) this.indexRow(r.id, r.sessionKey, r.text, r.cjk, r.said, r.promptParts);
    });
  }

  /** An event's rows: its text, and its prompt strings the session has no row for yet. */
  private indexRow(id: number, sessionKey: number, text: string, cjk: string, said: boolean, promptParts: readonly string[]): void {
    if (text !== '') this.insertText.run(id, text);
    if (cjk !== '') this.insertCjk.run(id, cjk);
    this.prompts.index(sessionKey, id, text, said, promptParts);
  }

  /** The ingest committed its group: the archive holds every line through `through`. */
  commit(through: number): void {
    this.archiveThrough = Math.max(this.archiveThrough, through);
    if (this.replaced()) this.reopen(null);
    if (this.dropLiveRows || this.failed) {
      // Every row through `through` is in the archive now, and the next group's rows come after this message.
      this.catchUp({ trustLiveRows: true });
      return;
    }
    const ok = this.guard(() => {
      if (!this.db.inTransaction) this.db.exec('BEGIN');
      // A catch-up may have read past this group already (the thread started after the archive committed it,
      // its "commit" still queued): every row through the mark is there, and the mark never moves back.
      if (through > this.mark) setSearchMeta(this.db, 'indexed_through', String(through));
      this.db.exec('COMMIT');
      this.mark = Math.max(this.mark, through);
      this.problem = null;
    });
    if (ok) this.report();
  }

  /** The ingest rolled its group back: so are its rows here. */
  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.prompts.forget(); // its prompt rows went with it
  }

  /**
   * Reads every event past the mark, through the archive's last commit, from the archive. Returns true once caught
   * up (false: a failure left it behind, to be tried again). Live rows stay dropped until the next commit unless
   * `trustLiveRows` (at a commit, or at the start of a thread that has dropped none): a catch-up between two
   * commits cannot know which rows of the open group it missed. Called while live rows are trusted and nothing
   * failed, it has nothing to do (the live path is complete, and a rollback here would lose the open group's rows).
   */
  catchUp(o: { trustLiveRows?: boolean } = {}): boolean {
    if (!this.dropLiveRows && !this.failed) return true;
    if (this.db.inTransaction) this.db.exec('ROLLBACK'); // dropped rows only: the archive gives them once committed
    this.prompts.forget();
    this.dropLiveRows = true;
    let rebuilding = false;
    const read = this.guard(() => {
      this.archiveThrough = Math.max(this.archiveThrough, this.archiveMax());
      rebuilding = this.fromArchive(() => derivedNeedRebuild(this.archive));
    });
    // The derived tables are being rebuilt (SCHEMA_VERSION changed): `events` is not there to read yet.
    if (!read || rebuilding) return false;
    while (this.mark < this.archiveThrough) {
      const target = this.archiveThrough;
      const ok = this.guard(() => {
        const rows = this.fromArchive(() => this.eventsToIndex.all(this.mark, target, CATCH_UP_EVENTS) as ArchivedEvent[]);
        const through = rows.length < CATCH_UP_EVENTS ? target : rows[rows.length - 1].id;
        this.db.exec('BEGIN');
        for (const r of rows) {
          const p = this.processed(r);
          if (p !== null) this.indexRow(r.id, sessionKeyOf(r.session_id), p.text, p.cjk, p.said, p.promptParts);
        }
        setSearchMeta(this.db, 'indexed_through', String(through));
        this.db.exec('COMMIT');
        this.mark = through;
      });
      if (!ok) return false;
      this.report();
    }
    this.failed = false;
    if (o.trustLiveRows) this.dropLiveRows = false;
    this.problem = null;
    this.archiveDamage = null;
    this.report();
    return true;
  }

  /** An archived event's line, processed as ingest processed it; null when it is gone or no longer an event. */
  private processed(r: ArchivedEvent): ReturnType<typeof processLine> | null {
    const bytes = this.fromArchive(() => this.raw.bytes(r.id));
    if (!bytes) return null;
    const p = processLine({ bytes, byteOffset: 0, tooLong: false }, lineFormatOf(r.kind));
    return p.kind === LINE_EVENT ? p : null;
  }

  /**
   * Between commits (an idle server commits nothing): a search file deleted or replaced since is noticed and
   * refilled, not only at the next commit.
   */
  followFile(): void {
    if (this.db.inTransaction || !this.replaced()) return;
    this.reopen(null);
    this.catchUp();
  }

  /**
   * After the backfill: live commits merged at FTS5's own policy from now on (LIVE_MERGE_CONFIG; the next open sets
   * the backfill's again), and SQLite's spare memory returned (the owner folds the write-ahead log, `foldLog`).
   */
  settle(): void {
    this.guard(() => setMergePolicy(this.db, LIVE_MERGE_CONFIG));
    this.releaseMemory();
  }

  /** Both connections' spare page cache returned, then the malloc arena trimmed (settle, and an idle thread). */
  releaseMemory(): void {
    if (!this.db.open) return;
    this.db.pragma('shrink_memory');
    this.archive.pragma('shrink_memory');
    trimMalloc(this.db);
  }

  /**
   * After the backfill: the FTS5 tables merged into one segment each (fts-compaction.ts), when the index grew
   * enough since their last merge; `onDone` once they are (the owner folds the log the merge wrote). Its steps run
   * between live groups, never inside one; a failed step is any write's failure (guard), and the merge is tried
   * again at the next settle, `merged_through` being unchanged.
   */
  compact(onDone: () => void = () => {}, o: { minGrowth?: number } = {}): void {
    if (this.compaction?.active || this.failed) return;
    const through = this.mark;
    if (!compactionDue(through, Number(searchMetaValue(this.db, 'merged_through') ?? '0'), o.minGrowth)) return;
    const db = this.db;
    this.compaction = new FtsCompaction(db, SEARCH_FTS_TABLES, {
      canStep: () => this.db === db && !db.inTransaction && !this.failed,
      onDone: () => {
        if (this.guard(() => setSearchMeta(db, 'merged_through', String(through)))) {
          db.pragma('shrink_memory');
          trimMalloc(db);
        }
        onDone();
      },
      onError: (err) =>
        this.guard(() => {
          throw err;
        }),
    });
    this.compaction.start();
  }

  /** Whether a merge of the FTS5 tables is under way (compact). */
  get compacting(): boolean {
    return this.compaction?.active ?? false;
  }

  /** Folds the write-ahead log into the search file; false when a reader or a live group was in the way. */
  foldLog(): boolean {
    return foldWriteAheadLog(this.db);
  }

  /** True while a failure keeps search behind (a full disk): the owner retries `catchUp` with a backoff. */
  get behind(): boolean {
    return this.failed;
  }

  close(): void {
    this.compaction?.stop();
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.db.close();
    } catch {
      /* closing after a failure */
    }
    this.archive.close();
  }

  private open(): void {
    const archiveId = archiveIdOf(this.archive);
    if (archiveId === null) throw new Error(`${this.archivePath} has no archive_id: open it for writing first (ensureSchema)`);
    this.db = openSearchWriteDb(this.archivePath, { archiveId });
    this.ino = fs.statSync(searchDbPath(this.archivePath)).ino;
    this.insertText = this.db.prepare('INSERT INTO event_text (rowid, text) VALUES (?, ?)');
    this.insertCjk = this.db.prepare('INSERT INTO event_cjk (rowid, text) VALUES (?, ?)');
    this.insertPromptDoc = this.db.prepare('INSERT OR IGNORE INTO prompt_docs (session_key, hash, event_id) VALUES (?, ?, ?)');
    this.insertPromptText = this.db.prepare('INSERT INTO prompt_text (rowid, text) VALUES (?, ?)');
    this.insertPromptCjk = this.db.prepare('INSERT INTO prompt_cjk (rowid, text) VALUES (?, ?)');
    this.mark = indexedThrough(this.db);
    this.dropLiveRows = true;
  }

  /** Starts a new search file (the old one moved aside when damaged), to be filled by catch-up. */
  private reopen(damage: string | null): void {
    this.compaction?.stop();
    try {
      this.db?.close();
    } catch {
      /* a damaged file may refuse even this */
    }
    const file = searchDbPath(this.archivePath);
    if (damage !== null && fs.existsSync(file)) {
      const aside = moveAside(file);
      this.problem = {
        kind: 'corrupt',
        reason: `the search index ${file} was damaged (${damage}); it was moved to ${aside} and is being refilled from the archive (nothing is lost: the archive holds every line)`,
      };
    }
    this.open();
  }

  /** The search file on disk is not the one this connection writes (deleted, or replaced by another). */
  private replaced(): boolean {
    try {
      return fs.statSync(searchDbPath(this.archivePath)).ino !== this.ino;
    } catch {
      return true;
    }
  }

  /**
   * A read of the archive; a damaged page it meets is the archive's (ArchiveDamagedError), never taken for the
   * search file's: before, guard moved the sound search file aside and refilled it, met the same page, and so on
   * every few seconds, and `chronoscope index` waited for search to catch up for ever (a damaged events page the
   * ingest's appends never touched: faults.test.ts).
   */
  private fromArchive<T>(read: () => T): T {
    try {
      return read();
    } catch (err) {
      if (isCorruption(err)) throw new ArchiveDamagedError(err instanceof Error ? err.message : String(err));
      throw err;
    }
  }

  /** Runs a write; a full disk or a damaged file leaves search behind, to catch up later. */
  private guard(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (err) {
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
      } catch {
        /* rolled back by SQLite already */
      }
      this.dropLiveRows = true;
      this.failed = true;
      if (err instanceof ArchiveDamagedError) {
        this.archiveDamage = err.message;
        this.problem = { kind: 'corrupt', reason: `the index ${this.archivePath} is damaged (${err.message}): search cannot read it until it is rebuilt` };
      } else if (isDiskFull(err)) this.problem = { kind: 'disk_full', reason: diskFullMessage(searchDbPath(this.archivePath), err) };
      else if (isCorruption(err)) this.reopen(err instanceof Error ? err.message : String(err));
      else throw err;
      this.report();
      return false;
    }
  }

  private archiveMax(): number {
    return this.fromArchive(() => lastLineId(this.archive));
  }

  private report(): void {
    this.onStatus(this.status);
  }
}
