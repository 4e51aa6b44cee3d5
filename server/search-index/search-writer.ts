import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { isCorruption, moveAside } from '../db/damaged-index';
import { openReadDb } from '../db/open';
import { foldWriteAheadLog } from '../db/write-ahead-log';
import { derivedNeedRebuild, PROMPT_DOCS_EPOCH } from '../db/schema';
import { plucked } from '../db/statements';
import { rawLines, type RawLineReader } from '../db/raw-lines';
import { diskFullMessage, isDiskFull } from '../ingest/disk-full';
import { lineFormatOf, LINE_EVENT, processLine, promptHash } from '../ingest/process-line';
import { cjkIndexText, promptText } from '../search/indexed-text';
import { archiveIdOf, indexedThrough, openSearchWriteDb, searchDbPath, searchMetaValue, setSearchMeta } from './search-db';

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
 * 4. Prompt rows (rowid = the archive's prompt_docs.id) follow the archive's numbering of prompt_docs, which starts
 *    again whenever the derived tables are recreated (meta prompt_docs_epoch): under another epoch every prompt row
 *    is deleted and refilled from the archive first, events <= `prompts_through` at a time. A catch-up finds an
 *    event's prompt rows by hash: each prompt string of its line whose prompt_docs row names this event as the
 *    first that sent it (as store.ts writePrompt decided).
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
  session_num: number;
  kind: string;
}

/**
 * The archive's numbering of prompt_docs ('' in an archive that never recreated its derived tables since). Read at
 * every commit (live, every 200 ms): a cached statement, not getMeta's prepare per call.
 */
const archivePromptEpoch = (archive: Database.Database): string =>
  (plucked(archive, 'SELECT value FROM meta WHERE key = ?').get(PROMPT_DOCS_EPOCH) as string | undefined) ?? '';

/** Events read from the archive per catch-up transaction: each commit moves the mark, and health with it. */
const CATCH_UP_EVENTS = 20_000;

export class SearchWriter {
  private db!: Database.Database;
  private archive: Database.Database;
  private raw: RawLineReader;
  private insertText!: Database.Statement;
  private insertCjk!: Database.Statement;
  private insertPromptText!: Database.Statement;
  private insertPromptCjk!: Database.Statement;
  /** the archive's prompt_docs numbering the prompt rows follow (search_meta prompt_epoch) */
  private promptEpoch: string | null = null;
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
  private readonly modelCallsToIndex: Database.Statement;
  private readonly promptDoc: Database.Statement;

  constructor(
    private readonly archivePath: string,
    private readonly onStatus: (s: SearchWriterStatus) => void = () => {},
  ) {
    // The archive through a read-only connection of its own, without the search file attached.
    this.archive = openReadDb(archivePath, { search: false });
    this.raw = rawLines(this.archive);
    this.eventsToIndex = this.archive.prepare(
      `SELECT e.id, e.session_num, f.kind FROM events e JOIN files f ON f.id = e.file_id WHERE e.id > ? AND e.id <= ? AND e.dup != 2 ORDER BY e.id LIMIT ?`,
    );
    // the events that can have prompt strings (promptStrings: model calls only)
    this.modelCallsToIndex = this.archive.prepare(
      `SELECT e.id, e.session_num, f.kind FROM events e JOIN files f ON f.id = e.file_id
       WHERE e.id > ? AND e.id <= ? AND e.type = 'llm_request' AND e.dup != 2 ORDER BY e.id LIMIT ?`,
    );
    this.promptDoc = this.archive.prepare('SELECT id FROM prompt_docs WHERE session_num = ? AND hash = ? AND event_id = ?').pluck();
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

  /**
   * Rows of the group being written by the ingest (not committed there yet). `docs[i]` > 0: the text of prompt_docs
   * row docs[i], first sent by event ids[i]; 0: event ids[i]'s own text.
   */
  add(ids: number[], texts: string[], cjks: string[], docs?: number[]): void {
    if (this.dropLiveRows) return;
    this.guard(() => {
      if (!this.db.inTransaction) this.db.exec('BEGIN');
      for (let i = 0; i < ids.length; i++) {
        if (ids[i] <= this.mark) continue;
        const doc = docs?.[i] ?? 0;
        if (doc > 0) {
          this.insertPromptText.run(doc, texts[i]);
          if (cjks[i] !== '') this.insertPromptCjk.run(doc, cjks[i]);
          continue;
        }
        if (texts[i] !== '') this.insertText.run(ids[i], texts[i]);
        if (cjks[i] !== '') this.insertCjk.run(ids[i], cjks[i]);
      }
    });
  }

  /** The ingest committed its group: the archive holds every line through `through`. */
  commit(through: number): void {
    this.archiveThrough = Math.max(this.archiveThrough, through);
    if (this.replaced()) this.reopen(null);
    // prompt_docs renumbered under this thread (its tables recreated): this group's prompt rows and every older
    // one are refilled by the catch-up
    let epoch = this.promptEpoch;
    if (!this.guard(() => (epoch = this.fromArchive(() => archivePromptEpoch(this.archive))))) return;
    if (this.promptEpoch !== epoch) this.dropLiveRows = true;
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
    this.dropLiveRows = true;
    let rebuilding = false;
    const read = this.guard(() => {
      this.archiveThrough = Math.max(this.archiveThrough, this.archiveMax());
      rebuilding = this.fromArchive(() => derivedNeedRebuild(this.archive));
    });
    // The derived tables are being rebuilt (SCHEMA_VERSION changed): `events` is not there to read yet.
    if (!read || rebuilding) return false;
    if (!this.guard(() => this.followPromptEpoch())) return false;
    while (this.mark < this.archiveThrough) {
      const target = this.archiveThrough;
      const ok = this.guard(() => {
        const rows = this.fromArchive(() => this.eventsToIndex.all(this.mark, target, CATCH_UP_EVENTS) as ArchivedEvent[]);
        const through = rows.length < CATCH_UP_EVENTS ? target : rows[rows.length - 1].id;
        this.db.exec('BEGIN');
        for (const r of rows) {
          const p = this.processed(r);
          if (p === null) continue;
          if (p.text !== '') this.insertText.run(r.id, p.text);
          if (p.cjk !== '') this.insertCjk.run(r.id, p.cjk);
          this.indexPrompts(r, p.prompts);
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

  /**
   * Under another prompt_docs numbering than the archive's (its derived tables recreated, or a search file written
   * before prompt rows lived here): every prompt row goes, and the model calls through the mark are read again for
   * theirs, a chunk per transaction (`prompts_through` says how far, so a crash resumes there).
   */
  private followPromptEpoch(): void {
    const epoch = this.fromArchive(() => archivePromptEpoch(this.archive));
    if (searchMetaValue(this.db, 'prompt_epoch') !== epoch) {
      this.db.transaction(() => {
        this.db.exec(`INSERT INTO prompt_text (prompt_text) VALUES ('delete-all'); INSERT INTO prompt_cjk (prompt_cjk) VALUES ('delete-all')`);
        setSearchMeta(this.db, 'prompt_epoch', epoch);
        setSearchMeta(this.db, 'prompts_through', '0');
      })();
    }
    this.promptEpoch = epoch;
    let done = Number(searchMetaValue(this.db, 'prompts_through') ?? this.mark);
    while (done < this.mark) {
      const rows = this.fromArchive(() => this.modelCallsToIndex.all(done, this.mark, CATCH_UP_EVENTS) as ArchivedEvent[]);
      const through = rows.length < CATCH_UP_EVENTS ? this.mark : rows[rows.length - 1].id;
      this.db.transaction(() => {
        for (const r of rows) {
          const p = this.processed(r);
          if (p !== null) this.indexPrompts(r, p.prompts);
        }
        if (through >= this.mark) this.db.prepare("DELETE FROM search_meta WHERE key = 'prompts_through'").run();
        else setSearchMeta(this.db, 'prompts_through', String(through));
      })();
      done = through;
    }
  }

  /** An archived event's line, processed as ingest processed it; null when it is gone or no longer an event. */
  private processed(r: ArchivedEvent): ReturnType<typeof processLine> | null {
    const bytes = this.fromArchive(() => this.raw.bytes(r.id));
    if (!bytes) return null;
    const p = processLine({ bytes, byteOffset: 0, tooLong: false }, lineFormatOf(r.kind));
    return p.kind === LINE_EVENT ? p : null;
  }

  /** The prompt rows of an archived model call: its strings whose prompt_docs row it was the first to send. */
  private indexPrompts(r: ArchivedEvent, prompts: string[]): void {
    let written: Set<number> | null = null;
    for (const raw of prompts) {
      const text = promptText(raw);
      if (text === '') continue;
      const doc = this.fromArchive(() => this.promptDoc.get(r.session_num, promptHash(text), r.id) as number | undefined);
      // two strings that fold to one text share one row (the ingest's second insert was ignored)
      if (doc === undefined || written?.has(doc)) continue;
      (written ??= new Set()).add(doc);
      this.insertPromptText.run(doc, text);
      const cjk = cjkIndexText(text);
      if (cjk !== '') this.insertPromptCjk.run(doc, cjk);
    }
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

  /** After the backfill: SQLite's spare memory returned (the owner folds the write-ahead log, `foldLog`). */
  settle(): void {
    this.db.pragma('shrink_memory');
    this.archive.pragma('shrink_memory');
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
    this.insertPromptText = this.db.prepare('INSERT INTO prompt_text (rowid, text) VALUES (?, ?)');
    this.insertPromptCjk = this.db.prepare('INSERT INTO prompt_cjk (rowid, text) VALUES (?, ?)');
    this.promptEpoch = null; // checked by the catch-up that follows every open
    this.mark = indexedThrough(this.db);
    this.dropLiveRows = true;
  }

  /** Starts a new search file (the old one moved aside when damaged), to be filled by catch-up. */
  private reopen(damage: string | null): void {
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
    return this.fromArchive(() => (this.archive.prepare('SELECT max(id) m FROM lines').get() as { m: number | null }).m ?? 0);
  }

  private report(): void {
    this.onStatus(this.status);
  }
}
