import type Database from 'better-sqlite3';
import path from 'node:path';
import type { FailureKind } from '../../shared/api/triage';
import { CALL_TYPES, SLOW_MS } from '../../shared/triage-terms';
import type { SessionSource } from '../../shared/api/common';
import { dbState } from '../db/db-state';
import { plucked } from '../db/statements';
import { CHUNK_ROWS, INT, NUM, type CommitRows } from './commit-rows';
import { PagedFloat64, PagedInt32, PagedUint32, PagedUint8, SpillFile, type PagedColumn } from './paged-column';

/**
 * The triage model: columns of the canonical events that triage counts (every call — llm_request, tool_call,
 * subagent, hook —, every event that took time, failed or is a failure), held per read connection and kept up to
 * date **incrementally by event id**. The columns are paged (paged-column.ts): full pages of 16,384 rows go to a
 * temporary file, so memory stays at a page or two per column whatever the corpus (issue 19.3). Events are append-only (no statement updates or
 * deletes them; ids only grow), so a sync reads only the rows with id > the last id seen: one scan of the table
 * when the server starts (in steps that yield to the event loop, see warmTriageModel), then a handful of rows
 * per indexed batch. Error groups, latency percentiles, chart data and list totals are passes over these
 * columns (milliseconds for millions of calls) instead of scans of the events table per request, and their
 * results are cached by `version`.
 *
 * A rebuild of the derived tables (SCHEMA_VERSION change, corrupt index) refills events file by file, so ids
 * can appear below the last id seen: the schema cookie changes when the tables are dropped, and a cheap check
 * (the error and failure counts of the partial indexes events_errors and events_fail against the model's)
 * reads everything again when rows appeared behind the model.
 */

export type CallType = (typeof CALL_TYPES)[number];

/**
 * Event ids per step of a warm-up, each step one turn of the event loop: 2,000 hold it for about 5–10 ms. At 20,000
 * a step held it 100–240 ms while a backfill's commits arrived, and that was the slowest /api/health during the bench's
 * bursts of queries (issue 19.4); a cold start on 2.7 M events takes ~1,400 steps instead of 140, each with its few
 * fixed statements (the schema cookie, max(id), the sessions check).
 */
export const STEP_IDS = 2_000;

/**
 * Event ids per JSON text of a load (`load`): about half of the ids are rows of the model, ~100 characters each, so a
 * text stays well under V8's large-object size (128 KB), which only a full collection frees (tree-cache.ts says why
 * that matters), and a sync from cold (Infinity ids) never builds one text of the whole table.
 */
const READ_CHUNK_IDS = 1_024;

/**
 * Rows of commits handed over by the ingest (commit-rows.ts) kept at most, waiting for a sync to reach them: ~90 bytes
 * each, so ~18 MB at worst (a model still loading from cold while a backfill commits); the oldest go first, and their
 * ids are read from SQL instead.
 */
const MAX_POSTED_ROWS = 200_000;

/**
 * What a row read back from SQL costs against one handed over (~1.0 against ~0.35 µs at 1.6 GiB, the latter mostly
 * `add`): a warm-up step holds the event loop about as long either way.
 */
const POSTED_COST = 1 / 3;

const CHECK_EVERY_MS = 5_000;
/** A followed model still reads every session's repository this often while commits arrive (syncSessions). */
const FULL_READ_EVERY_MS = 60_000;

/** A per-session counter array with room for `need` sessions (sessions number thousands: small, kept in memory). */
function grow(a: Uint32Array<ArrayBuffer>, need: number): Uint32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Uint32Array(Math.max(need, Math.ceil(a.length * 1.25), 1024));
  b.set(a);
  return b;
}

interface SessionRow {
  num: number;
  id: string;
  repository: string | null;
  source: string;
}

export interface SessionInfo {
  id: string;
  repository: string | null;
  source: SessionSource;
}

export interface FailGroupKey {
  type: string;
  kind: FailureKind;
  /** model / tool / agent / hook type / event name; '' when the column is empty */
  subject: string;
  signature: string;
}

export function failureKind(type: string): FailureKind {
  switch (type) {
    case 'llm_request':
      return 'model';
    case 'tool_call':
      return 'tool';
    case 'subagent':
      return 'subagent';
    case 'hook':
      return 'hook';
    case 'discovery':
      return 'discovery';
    default:
      return 'other';
  }
}

/** The subject a call or failure is grouped under: the column the UI filters on for that type. */
export function subjectOf(type: string, name: string | null, model: string | null, tool: string | null): string {
  if (type === 'llm_request') return model ?? '';
  if (type === 'tool_call' || type === 'subagent') return tool ?? name ?? '';
  return name ?? '';
}

type Row = [
  id: number,
  type: string,
  name: string | null,
  model: string | null,
  tool: string | null,
  status: number,
  ts: number | null,
  dur: number,
  ttft: number | null,
  tin: number | null,
  tout: number | null,
  tcached: number | null,
  session: number,
  fail: string | null,
  dup: number,
];

/** Whether a load's rows came in id order (`load`). */
function ascending(rows: readonly Row[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i][0] < rows[i - 1][0]) return false;
  return true;
}

export class TriageModel {
  /** interned subject strings (models, tools, hook types, names) */
  readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** event types; the call types first, at their index in CALL_TYPES */
  readonly types: string[] = [...CALL_TYPES];
  private readonly typeIds = new Map<string, number>(CALL_TYPES.map((t, i) => [t, i]));

  // Rows: one per canonical event that is a call, took time, failed or is a failure, in id order. Paged to a
  // temporary file (paged-column.ts): what stays in memory is a page or two per column, whatever the corpus.
  n = 0;
  /** event ids are line ids, which stay far below 2^32 (4 billion archived lines) */
  cId!: PagedColumn;
  cTs!: PagedColumn; // NaN when the line had no ts
  cDur!: PagedColumn;
  cStatus!: PagedColumn;
  cType!: PagedColumn;
  cSubject!: PagedColumn;
  cSession!: PagedColumn;
  /** index into the l* columns for model calls, -1 otherwise */
  cLlm!: PagedColumn;
  /** failure group, -1 when the event is not a failure */
  cFail!: PagedColumn;

  /** the rows of each subject and of each type (indexes into the columns above, ascending), for filtered passes */
  bySubject: PagedColumn[] = [];
  byType: PagedColumn[] = [];

  // Model calls: the columns only they have. NaN = absent.
  ln = 0;
  lId!: PagedColumn;
  lTtft!: PagedColumn;
  lIn!: PagedColumn;
  lOut!: PagedColumn;
  lCached!: PagedColumn;

  // Failures: their row and event id, in id order.
  fn = 0;
  fRow!: PagedColumn;
  fId!: PagedColumn;
  readonly failGroups: FailGroupKey[] = [];
  private readonly failGroupIds = new Map<string, number>();

  /** canonical counts and raw ones (every line, replay and broadcast copies included: what jq counts) */
  counts = { slowUnique: 0, slowRaw: 0, errorsUnique: 0, errorsRaw: 0, failuresUnique: 0 };
  /** the raw counts per session number, so that a repository's or a source's are its own lines (rawCounts) */
  private rawSlow = new Uint32Array(0);
  private rawErrors = new Uint32Array(0);

  lastId = 0;
  private schemaCookie = -1;
  private lastCheck = 0;
  private checkedId = 0;
  sessions = new Map<number, SessionInfo>();
  private sessionNums = new Map<string, number>();
  private maxSessionNum = -1;
  /** dbState when the sessions' repositories were last read, and how many times one of them changed since. */
  private sessionsReadAt = '';
  private repositoryChanges = 0;
  private followed = false;
  /** sessions named by the ingest since the last read (followChanges) */
  private readonly changedSessions = new Set<string>();
  private fullReadAt = -Infinity;
  /** changes whenever anything the results depend on changes: the key of every cached result */
  version = '';
  private warming: Promise<void> | null = null;
  private readonly rowsStmt;
  /** commits' rows as the ingest wrote them, in id order (`offer`), until a sync has added them */
  private posted: CommitRows[] = [];

  private readonly file: SpillFile;

  /** `inMemory`: never page to a file (the model that replaces one whose file failed) */
  constructor(
    private readonly db: Database.Database,
    inMemory = false,
  ) {
    this.file = new SpillFile(!pagesToDisk || inMemory ? false : db.memory || db.name === '' ? null : path.dirname(path.resolve(db.name)));
    spillFiles.register(this, this.file, this);
    this.newColumns();
    // One JSON array of rows per READ_CHUNK_IDS ids, built by SQLite and parsed at once by V8: 1.0 µs a row against
    // 1.9 through the driver's row iterator. A cold sync of the finished 1.6 GiB bench archive (1.55 M rows) took
    // 4.1–4.7 CPU s that way and takes 2.3–2.7; the main thread does this after every commit of a backfill.
    this.rowsStmt = db
      .prepare(
        `SELECT json_group_array(json_array(id, type, name, model, tool, status, ts, dur, ttft, tokens_in, tokens_out, tokens_cached, session_num, fail, dup))
         FROM events WHERE id > ? AND id <= ?
           AND (type IN ('llm_request', 'tool_call', 'subagent', 'hook') OR dur > 0 OR status = 1 OR fail IS NOT NULL OR dup > 0)`,
      )
      .pluck();
  }

  intern(s: string): number {
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }

  stringId(s: string): number | undefined {
    return this.stringIds.get(s);
  }

  typeId(t: string): number | undefined {
    return this.typeIds.get(t);
  }

  sessionNum(id: string): number | undefined {
    return this.sessionNums.get(id);
  }

  repositoryOf(sessionNum: number): string | null {
    return this.sessions.get(sessionNum)?.repository ?? null;
  }

  /**
   * The sessions a repository ('' = none) and source filter keep, as a predicate that remembers each session's
   * answer (it runs once per row, over millions of rows); null when neither filter is set.
   */
  sessionScope(repo: string | undefined, source: SessionSource | undefined): ((sessionNum: number) => boolean) | null {
    if (repo === undefined && source === undefined) return null;
    const wantRepo = repo === '' ? null : repo;
    const known = new Map<number, boolean>();
    return (num) => {
      let ok = known.get(num);
      if (ok === undefined) {
        const s = this.sessions.get(num);
        ok = (wantRepo === undefined || (s?.repository ?? null) === wantRepo) && (source === undefined || (s?.source ?? 'vscode') === source);
        known.set(num, ok);
      }
      return ok;
    };
  }

  /**
   * The raw counts (every line, copies included: what jq over the files counts) of the sessions a repository and
   * source filter keep; all-time, like jq. Sums per-session counters: a few thousand additions, not a pass over rows.
   */
  rawCounts(repo: string | undefined, source: SessionSource | undefined): { slow: number; errors: number } {
    const keep = this.sessionScope(repo, source);
    if (keep === null) return { slow: this.counts.slowRaw, errors: this.counts.errorsRaw };
    let slow = 0;
    let errors = 0;
    for (let num = 0; num < this.rawSlow.length; num++) {
      if (this.rawSlow[num] + this.rawErrors[num] === 0 || !keep(num)) continue;
      slow += this.rawSlow[num];
      errors += this.rawErrors[num];
    }
    return { slow, errors };
  }

  /**
   * A commit's rows as the ingest wrote them (commit-rows.ts): a sync adds them from here instead of reading them
   * back through SQL. Kept until a sync reaches them; a batch that does not follow the ones kept is kept alone.
   */
  offer(rows: CommitRows): void {
    if (rows.through <= this.lastId) return handBack(rows);
    const last = this.posted[this.posted.length - 1];
    if (last !== undefined && (rows.schema !== last.schema || rows.after < last.through)) this.keepPosted(() => false);
    this.posted.push(rows);
    let kept = 0;
    for (const b of this.posted) kept += b.n;
    while (kept > MAX_POSTED_ROWS && this.posted.length > 0) {
      const dropped = this.posted.shift() as CommitRows;
      kept -= dropped.n;
      handBack(dropped);
    }
  }

  /** Keeps the handed-over commits `keep` says, and hands the others' chunks back (`handCommitRowsBackWith`). */
  private keepPosted(keep: (rows: CommitRows) => boolean): void {
    const kept: CommitRows[] = [];
    for (const b of this.posted) {
      if (keep(b)) kept.push(b);
      else handBack(b);
    }
    this.posted = kept;
  }

  /** Brings the model up to the committed state of the index (synchronously: the rest of a warm-up too). */
  sync(now = Date.now()): this {
    while (!this.step(now, Infinity));
    return this;
  }

  /**
   * Loads up to `maxIds` more ids (up to 1 / POSTED_COST times as many that the ingest handed over) inside one read
   * transaction (every statement sees one snapshot). Returns
   * true when the model is at the snapshot's last id. Cheap when nothing changed: a pragma and two point reads.
   */
  step(now: number, maxIds = STEP_IDS): boolean {
    return this.db.transaction(() => {
      const db = this.db;
      const { cookie, maxId, startOver } = this.indexState();
      if (startOver) this.reset(cookie);
      const cold = this.lastId === 0;
      const hi = Math.min(maxId, Math.max(this.lastId + maxIds, Math.min(this.postedThrough(), this.lastId + maxIds / POSTED_COST)));
      if (hi > this.lastId) this.load(hi);
      const done = hi === maxId;
      if (done && cold) {
        this.lastCheck = now;
        this.checkedId = this.lastId;
      } else if (done && this.lastId !== this.checkedId && now - this.lastCheck > CHECK_EVERY_MS) {
        // Rows that appeared behind lastId (a rebuild refilling file by file) would otherwise never be seen;
        // errors and failures are counted by partial indexes in a few ms, and a refilled file has some.
        this.lastCheck = now;
        const c = db
          .prepare('SELECT (SELECT count(*) FROM events WHERE status = 1 AND dup = 0) e, (SELECT count(*) FROM events WHERE fail IS NOT NULL AND dup = 0) f')
          .get() as { e: number; f: number };
        if (c.e !== this.counts.errorsUnique || c.f !== this.counts.failuresUnique) {
          this.reset(cookie);
          return false;
        }
        this.checkedId = this.lastId;
      }
      this.syncSessions(now);
      this.version = `${this.schemaCookie}:${this.lastId}:${this.maxSessionNum}:${this.repositoryChanges}`;
      return done;
    })();
  }

  /**
   * Event ids a sync would load to reach the index as this connection sees it now (Infinity when the model must
   * start over: the derived tables were recreated). Inside a read transaction, what a sync in it would load.
   */
  behind(): number {
    const { maxId, startOver } = this.indexState();
    return startOver ? Infinity : maxId - this.lastId;
  }

  /**
   * Where the index stands for this connection: its schema cookie, its last event id, and whether the model must
   * start over (the derived tables were recreated, or ids went back).
   */
  private indexState(): { cookie: number; maxId: number; startOver: boolean } {
    const cookie = Number(this.db.pragma('schema_version', { simple: true }));
    const maxId = (plucked(this.db, 'SELECT max(id) FROM events').get() as number | null) ?? 0;
    return { cookie, maxId, startOver: cookie !== this.schemaCookie || maxId < this.lastId };
  }

  /**
   * Loads the model in steps that yield to the event loop between them, so that a cold start on millions of
   * events does not stall the other routes; concurrent callers share one warm-up.
   */
  warm(): Promise<void> {
    if (this.warming) return this.warming;
    // Cleared in a `finally` of the promise, which runs after this assignment: the async function's own `finally`
    // ran before it whenever the model was already current (no await reached), and the assignment then kept a
    // settled promise for ever, so every later warm-up returned at once without a step, and each triage request
    // loaded whole commit groups in its own sync (issue 19.4).
    const warming = this.warmInSteps().finally(() => {
      if (this.warming === warming) this.warming = null;
    });
    this.warming = warming;
    return warming;
  }

  private async warmInSteps(): Promise<void> {
    while (this.db.open && !this.step(Date.now())) await new Promise<void>((r) => setImmediate(r));
  }

  /**
   * From now on the sessions whose facts change are named to the model (`sessionsChanged`, from the ingest's
   * `indexed` messages: the sessions each commit refreshed), so a commit costs a read of those sessions and of the
   * new ones instead of the whole sessions table. A connection nobody tells (the CLI, tests) keeps re-reading all.
   */
  followChanges(): void {
    this.followed = true;
  }

  sessionsChanged(ids: Iterable<string>): void {
    for (const id of ids) this.changedSessions.add(id);
  }

  private syncSessions(now: number): void {
    // A session's id and source never change, but its repository does after it was created: a CLI session's
    // workspace.yaml or vscode.metadata.json arrives after its first events, and a session under two roots takes
    // the newest copy that has one (refresh-session.ts). Both are set by a refresh, which names the session in
    // the commit's `indexed` message. Unfollowed, or once every FULL_READ_EVERY_MS while commits arrive (a
    // message lost with a worker that died after its commit), every repository is read again.
    const state = dbState(this.db);
    if (state === this.sessionsReadAt && this.changedSessions.size === 0) return;
    const full = !this.followed || this.sessionsReadAt === '' || (state !== this.sessionsReadAt && now - this.fullReadAt >= FULL_READ_EVERY_MS);
    if (full) {
      this.fullReadAt = now;
      for (const r of this.db.prepare('SELECT num, id, repository, source FROM sessions').all() as SessionRow[]) this.noteSession(r);
    } else {
      for (const r of this.db.prepare('SELECT num, id, repository, source FROM sessions WHERE num > ?').all(this.maxSessionNum) as SessionRow[]) this.noteSession(r);
      const one = this.db.prepare('SELECT num, id, repository, source FROM sessions WHERE id = ?');
      for (const id of this.changedSessions) {
        const r = one.get(id) as SessionRow | undefined;
        if (r) this.noteSession(r);
      }
    }
    this.changedSessions.clear();
    this.sessionsReadAt = state;
  }

  private noteSession(r: SessionRow): void {
    const known = this.sessions.get(r.num);
    if (known) {
      if (known.repository !== r.repository) {
        known.repository = r.repository;
        this.repositoryChanges++;
      }
      return;
    }
    this.sessions.set(r.num, { id: r.id, repository: r.repository, source: r.source === 'cli' ? 'cli' : 'vscode' });
    this.sessionNums.set(r.id, r.num);
    if (r.num > this.maxSessionNum) this.maxSessionNum = r.num;
  }

  private reset(cookie: number): void {
    this.schemaCookie = cookie;
    this.lastId = 0;
    this.n = this.ln = this.fn = 0;
    this.failGroups.length = 0;
    this.failGroupIds.clear();
    this.counts = { slowUnique: 0, slowRaw: 0, errorsUnique: 0, errorsRaw: 0, failuresUnique: 0 };
    this.rawSlow = new Uint32Array(0);
    this.rawErrors = new Uint32Array(0);
    this.sessions = new Map();
    this.sessionNums = new Map();
    this.maxSessionNum = -1;
    this.sessionsReadAt = '';
    this.fullReadAt = -Infinity;
    this.file.clear();
    this.newColumns();
  }

  private newColumns(): void {
    const f = this.file;
    this.cId = new PagedUint32(f);
    this.cTs = new PagedFloat64(f);
    this.cDur = new PagedFloat64(f);
    this.cStatus = new PagedUint8(f);
    this.cType = new PagedInt32(f);
    this.cSubject = new PagedInt32(f);
    this.cSession = new PagedInt32(f);
    this.cLlm = new PagedInt32(f);
    this.cFail = new PagedInt32(f);
    this.lId = new PagedUint32(f);
    this.lTtft = new PagedFloat64(f);
    this.lIn = new PagedFloat64(f);
    this.lOut = new PagedFloat64(f);
    this.lCached = new PagedFloat64(f);
    this.fRow = new PagedInt32(f);
    this.fId = new PagedUint32(f);
    this.bySubject = [];
    this.byType = [];
  }

  pageFileBroken(): boolean {
    return this.file.broken;
  }

  close(): void {
    spillFiles.unregister(this);
    this.file.close();
  }

  /** Bytes the columns and row lists hold in memory (bounded: a page or two each). */
  bytes(): number {
    const columns = [this.cId, this.cTs, this.cDur, this.cStatus, this.cType, this.cSubject, this.cSession, this.cLlm, this.cFail, this.lId, this.lTtft, this.lIn, this.lOut, this.lCached, this.fRow, this.fId];
    let n = 0;
    for (const c of columns) n += c.residentBytes();
    for (const l of [...this.bySubject, ...this.byType]) if (l) n += l.residentBytes();
    return n;
  }

  /** Bytes of full pages in the temporary file (what grows with the corpus, outside the process). */
  bytesOnDisk(): number {
    return this.file.bytes;
  }

  /**
   * Where the handed-over commits that follow lastId end without a gap (lastId when none does): a step adds up to
   * POSTED_COST times more of those ids than of ids it reads from SQL, for the same time.
   */
  private postedThrough(): number {
    let through = this.lastId;
    for (const p of this.posted) if (p.schema === this.schemaCookie && p.after <= through && p.through > through) through = p.through;
    return through;
  }

  /** Adds the rows of ids (lastId, hi]: from the commits the ingest handed over where they cover them, else from SQL. */
  private load(hi: number): void {
    while (this.lastId < hi) {
      const from = this.lastId;
      const b = this.posted.find((p) => p.schema === this.schemaCookie && p.after <= from && from < p.through);
      if (b !== undefined) {
        const to = Math.min(hi, b.through);
        this.addPosted(b, from, to);
        this.lastId = to;
        continue;
      }
      let to = hi;
      for (const p of this.posted) if (p.schema === this.schemaCookie && p.after > from && p.after < to) to = p.after;
      this.loadFromSql(from, to);
      this.lastId = to;
    }
    this.keepPosted((p) => p.schema === this.schemaCookie && p.through > this.lastId);
  }

  private loadFromSql(from: number, hi: number): void {
    for (let lo = from; lo < hi; lo += READ_CHUNK_IDS) {
      const rows = JSON.parse(this.rowsStmt.get(lo, Math.min(hi, lo + READ_CHUNK_IDS)) as string) as Row[];
      // a range of the rowid is scanned in id order; sorted if a plan ever did otherwise (add keeps id order)
      if (!ascending(rows)) rows.sort((a, b) => a[0] - b[0]);
      for (const r of rows) this.add(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14]);
    }
  }

  /** The rows of a handed-over commit with ids in (from, to]. */
  private addPosted(b: CommitRows, from: number, to: number): void {
    const { strings } = b;
    const str = (i: number) => (i < 0 ? null : strings[i]);
    // the first row past `from`: rows are in id order
    let lo = 0;
    let hi = b.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (b.num[Math.floor(mid / CHUNK_ROWS)][(mid % CHUNK_ROWS) * NUM] <= from) lo = mid + 1;
      else hi = mid;
    }
    for (let r = lo; r < b.n; r++) {
      const num = b.num[Math.floor(r / CHUNK_ROWS)];
      const int = b.int[Math.floor(r / CHUNK_ROWS)];
      const a = (r % CHUNK_ROWS) * NUM;
      const id = num[a];
      if (id > to) break;
      const c = (r % CHUNK_ROWS) * INT;
      const type = strings[int[c + 3]];
      this.add(id, type, str(int[c + 4]), str(int[c + 5]), str(int[c + 6]), int[c], num[a + 1], num[a + 2], num[a + 3], num[a + 4], num[a + 5], num[a + 6], int[c + 1], str(int[c + 7]), int[c + 2]);
    }
  }

  private add(
    id: number,
    type: string,
    name: string | null,
    model: string | null,
    tool: string | null,
    status: number,
    ts: number | null,
    dur: number,
    ttft: number | null,
    tin: number | null,
    tout: number | null,
    tcached: number | null,
    session: number,
    fail: string | null,
    dup: number,
  ): void {
    const slow = dur > SLOW_MS ? 1 : 0;
    this.counts.slowRaw += slow;
    this.counts.errorsRaw += status;
    if (slow + status > 0) {
      this.rawSlow = grow(this.rawSlow, session + 1);
      this.rawErrors = grow(this.rawErrors, session + 1);
      this.rawSlow[session] += slow;
      this.rawErrors[session] += status;
    }
    // A replay or broadcast copy (dup 1) or a repeat in one file (dup 2): a line jq counts, never a statistic.
    if (dup !== 0) return;
    this.counts.slowUnique += slow;
    this.counts.errorsUnique += status;

    const i = this.n++;
    let code = this.typeIds.get(type);
    if (code === undefined) {
      code = this.types.length;
      this.types.push(type);
      this.typeIds.set(type, code);
    }
    const subject = subjectOf(type, name, model, tool);
    const subjectId = this.intern(subject);
    (this.bySubject[subjectId] ??= new PagedInt32(this.file)).push(i);
    (this.byType[code] ??= new PagedInt32(this.file)).push(i);
    this.cId.push(id);
    this.cTs.push(ts ?? NaN);
    this.cDur.push(dur);
    this.cStatus.push(status);
    this.cType.push(code);
    this.cSubject.push(subjectId);
    this.cSession.push(session);
    if (code === 0) {
      this.cLlm.push(this.ln++);
      this.lId.push(id);
      this.lTtft.push(ttft ?? NaN);
      this.lIn.push(tin ?? NaN);
      this.lOut.push(tout ?? NaN);
      this.lCached.push(tcached ?? NaN);
    } else this.cLlm.push(-1);

    if (fail === null) {
      this.cFail.push(-1);
      return;
    }
    this.counts.failuresUnique++;
    const key = `${type}\u0000${subject}\u0000${fail}`;
    let g = this.failGroupIds.get(key);
    if (g === undefined) {
      g = this.failGroups.length;
      this.failGroups.push({ type, kind: failureKind(type), subject, signature: fail });
      this.failGroupIds.set(key, g);
    }
    this.cFail.push(g);
    this.fn++;
    this.fId.push(id);
    this.fRow.push(i);
  }

  callCode(type: CallType): number {
    return this.typeIds.get(type) as number;
  }
}

const models = new WeakMap<Database.Database, TriageModel>();
/**
 * Whether models created from now on write their full pages to a file: `serve` and `mcp` do (they run for days
 * beside a growing index); a one-shot command (`chronoscope slow`, `errors`) and the tests keep them in memory
 * rather than write ~60 bytes a call to disk and read them back once.
 */
let pagesToDisk = false;
export function pageTriageModelsToDisk(on = true): void {
  pagesToDisk = on;
}
/** A model's temporary file is closed when the model is garbage (its connection closed and dropped). */
const spillFiles = new FinalizationRegistry<SpillFile>((f) => f.close());

function modelOf(db: Database.Database): TriageModel {
  let m = models.get(db);
  // A page file that failed a read (a disk error): the request that met it said so, and the model is read again
  // from the index with its pages in memory, so the next one is answered.
  if (!m || m.pageFileBroken()) {
    const inMemory = m !== undefined;
    m?.close();
    m = new TriageModel(db, inMemory);
    models.set(db, m);
  }
  return m;
}

/** The model of a read connection, synced to the committed index. */
export function triageModel(db: Database.Database, now = Date.now()): TriageModel {
  return modelOf(db).sync(now);
}

/** Bytes the connection's model holds (0 before its first use): for the memory log. */
export function triageModelBytes(db: Database.Database): number {
  return models.get(db)?.bytes() ?? 0;
}

/** Tells the connection's model which sessions the ingest refreshed, and that it will keep being told. */
export function noteChangedSessions(db: Database.Database, sessionIds: Iterable<string>): void {
  const m = modelOf(db);
  m.followChanges();
  m.sessionsChanged(sessionIds);
}

/** Event ids the connection's model is behind the index as the connection sees it now (TriageModel.behind). */
export function triageModelBehind(db: Database.Database): number {
  return modelOf(db).behind();
}

let handBackTo: ((rows: CommitRows) => void) | null = null;
/** Where models send the chunks of the commits they are done with (serve: back to the ingest, which reuses them). */
export function handCommitRowsBackWith(fn: ((rows: CommitRows) => void) | null): void {
  handBackTo = fn;
}
function handBack(rows: CommitRows): void {
  if (rows.num.length > 0) handBackTo?.(rows);
}

/** Hands a commit's rows, as the ingest wrote them, to the connection's model (TriageModel.offer). */
export function offerCommitRows(db: Database.Database, rows: CommitRows): void {
  modelOf(db).offer(rows);
}

/** Loads the model of a connection without blocking the event loop for long (server start, after each batch). */
export function warmTriageModel(db: Database.Database): Promise<void> {
  return modelOf(db).warm();
}
