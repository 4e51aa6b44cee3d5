import type Database from 'better-sqlite3';
import { CALL_TYPES, type FailureKind } from '../../shared/api/triage';
import type { SessionSource } from '../../shared/api/common';
import { dbState } from '../db/db-state';

/**
 * The triage model: typed-array columns of the canonical events that triage counts (every call —
 * llm_request, tool_call, subagent, hook —, every event that took time, failed or is a failure), held per read
 * connection and kept up to date **incrementally by event id**. Events are append-only (no statement updates or
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

/** The slow threshold of the headline counts (FORMAT §6: `dur > 5000`). */
export const SLOW_MS = 5000;

/** ids per step: one step blocks the event loop for a few tens of ms at most */
const STEP_IDS = 20_000;
const CHECK_EVERY_MS = 5_000;
/** A followed model still reads every session's repository this often while commits arrive (syncSessions). */
const FULL_READ_EVERY_MS = 60_000;

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

type Column = Float64Array | Float32Array | Int32Array | Int16Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * A column with room for `need` rows. Grows by a quarter, not double: the model is the largest thing the server
 * holds (tens of bytes a call, millions of calls), doubling left up to half of it empty, and the old column is
 * garbage only after the copy (a quarter is also the largest moment of two copies at once).
 */
function grow<T extends Column>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = a.length || 1024;
  while (cap < need) cap = Math.ceil(cap * 1.25);
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}

/**
 * Columns start as narrow as the values seen so far allow and widen, once, to the type that holds a value
 * exactly (never a rounded duration or token count): durations, TTFT and tokens are whole numbers below 2^24
 * in practice (4 bytes instead of 8), types, subjects and failure groups a few hundred or thousand values,
 * session numbers a few thousand.
 */
export type FloatColumn = Float32Array | Float64Array;
export type IndexColumn = Uint8Array | Uint16Array | Int16Array | Int32Array;

export function holdFloat(a: FloatColumn, v: number): FloatColumn {
  return a instanceof Float64Array || Math.fround(v) === v || Number.isNaN(v) ? a : Float64Array.from(a);
}

export function holdIndex(a: IndexColumn, v: number): IndexColumn {
  if (a instanceof Int32Array) return a;
  const fits = a instanceof Uint8Array ? v >= 0 && v < 256 : a instanceof Uint16Array ? v >= 0 && v < 65536 : v >= -32768 && v < 32768;
  return fits ? a : Int32Array.from(a);
}

/** A growable list of row indexes. */
export class RowList {
  rows = new Int32Array(16);
  length = 0;
  push(i: number): void {
    if (this.length === this.rows.length) this.rows = grow(this.rows, this.length + 1);
    this.rows[this.length++] = i;
  }
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

export class TriageModel {
  /** interned subject strings (models, tools, hook types, names) */
  readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  /** event types; the call types first, at their index in CALL_TYPES */
  readonly types: string[] = [...CALL_TYPES];
  private readonly typeIds = new Map<string, number>(CALL_TYPES.map((t, i) => [t, i]));

  // Rows: one per canonical event that is a call, took time, failed or is a failure, in id order.
  n = 0;
  /** event ids are line ids, which stay far below 2^32 (4 billion archived lines), so 4 bytes each */
  cId = new Uint32Array(0);
  cTs = new Float64Array(0); // NaN when the line had no ts
  cDur: FloatColumn = new Float32Array(0);
  cStatus = new Uint8Array(0);
  cType: IndexColumn = new Uint8Array(0);
  cSubject: IndexColumn = new Uint16Array(0);
  /** sessions.num: below 65,536 for most indexes (17,524 sessions at 1.6 GB) */
  cSession: IndexColumn = new Uint16Array(0);
  /** index into the l* columns for model calls, -1 otherwise */
  cLlm = new Int32Array(0);
  /** failure group, -1 when the event is not a failure */
  cFail: IndexColumn = new Int16Array(0);

  /** the rows of each subject and of each type (indexes into the columns above, ascending), for filtered passes */
  readonly bySubject: RowList[] = [];
  readonly byType: RowList[] = [];

  // Model calls: the columns only they have. NaN = absent.
  ln = 0;
  lId = new Uint32Array(0);
  lTtft: FloatColumn = new Float32Array(0);
  lIn: FloatColumn = new Float32Array(0);
  lOut: FloatColumn = new Float32Array(0);
  lCached: FloatColumn = new Float32Array(0);

  // Failures: their row and event id, in id order.
  fn = 0;
  fRow = new Int32Array(0);
  fId = new Uint32Array(0);
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

  constructor(private readonly db: Database.Database) {
    this.rowsStmt = db
      .prepare(
        `SELECT id, type, name, model, tool, status, ts, dur, ttft, tokens_in, tokens_out, tokens_cached, session_num, fail, dup
         FROM events WHERE id > ? AND id <= ?
           AND (type IN ('llm_request', 'tool_call', 'subagent', 'hook') OR dur > 0 OR status = 1 OR fail IS NOT NULL OR dup > 0)`,
      )
      .raw(true);
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

  /** Brings the model up to the committed state of the index (synchronously: the rest of a warm-up too). */
  sync(now = Date.now()): this {
    while (!this.step(now, Infinity));
    return this;
  }

  /**
   * Loads up to `maxIds` more ids inside one read transaction (every statement sees one snapshot). Returns
   * true when the model is at the snapshot's last id. Cheap when nothing changed: a pragma and two point reads.
   */
  step(now: number, maxIds = STEP_IDS): boolean {
    return this.db.transaction(() => {
      const db = this.db;
      const cookie = Number(db.pragma('schema_version', { simple: true }));
      const maxId = (db.prepare('SELECT max(id) m FROM events').get() as { m: number | null }).m ?? 0;
      if (cookie !== this.schemaCookie || maxId < this.lastId) this.reset(cookie);
      const cold = this.lastId === 0;
      const hi = Math.min(maxId, this.lastId + maxIds);
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
   * Loads the model in steps that yield to the event loop between them, so that a cold start on millions of
   * events does not stall the other routes; concurrent callers share one warm-up.
   */
  warm(): Promise<void> {
    if (this.warming) return this.warming;
    this.warming = (async () => {
      try {
        while (this.db.open && !this.step(Date.now())) await new Promise<void>((r) => setImmediate(r));
      } finally {
        this.warming = null;
      }
    })();
    return this.warming;
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
    this.bySubject.length = 0;
    this.byType.length = 0;
    // back to the narrow columns: a rebuilt index may no longer hold the value that widened one
    this.cId = new Uint32Array(0);
    this.cTs = new Float64Array(0);
    this.cDur = new Float32Array(0);
    this.cStatus = new Uint8Array(0);
    this.cType = new Uint8Array(0);
    this.cSubject = new Uint16Array(0);
    this.cSession = new Uint16Array(0);
    this.cLlm = new Int32Array(0);
    this.cFail = new Int16Array(0);
    this.lId = new Uint32Array(0);
    this.lTtft = new Float32Array(0);
    this.lIn = new Float32Array(0);
    this.lOut = new Float32Array(0);
    this.lCached = new Float32Array(0);
    this.fRow = new Int32Array(0);
    this.fId = new Uint32Array(0);
  }

  /** Bytes held by the columns and row lists (what grows with the corpus). */
  bytes(): number {
    const columns = [this.cId, this.cTs, this.cDur, this.cStatus, this.cType, this.cSubject, this.cSession, this.cLlm, this.cFail, this.lId, this.lTtft, this.lIn, this.lOut, this.lCached, this.fRow, this.fId];
    let n = 0;
    for (const c of columns) n += c.byteLength;
    for (const l of [...this.bySubject, ...this.byType]) if (l) n += l.rows.byteLength;
    return n;
  }

  private load(hi: number): void {
    for (const r of this.rowsStmt.iterate(this.lastId, hi) as Iterable<Row>) this.add(r);
    this.lastId = hi;
  }

  private add(r: Row): void {
    const [id, type, name, model, tool, status, ts, dur, ttft, tin, tout, tcached, session, fail, dup] = r;
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
    if (i >= this.cTs.length) {
      const need = i + 1;
      this.cId = grow(this.cId, need);
      this.cTs = grow(this.cTs, need);
      this.cDur = grow(this.cDur, need);
      this.cStatus = grow(this.cStatus, need);
      this.cType = grow(this.cType, need);
      this.cSubject = grow(this.cSubject, need);
      this.cSession = grow(this.cSession, need);
      this.cLlm = grow(this.cLlm, need);
      this.cFail = grow(this.cFail, need);
    }
    let code = this.typeIds.get(type);
    if (code === undefined) {
      code = this.types.length;
      this.types.push(type);
      this.typeIds.set(type, code);
    }
    const subject = subjectOf(type, name, model, tool);
    const subjectId = this.intern(subject);
    (this.bySubject[subjectId] ??= new RowList()).push(i);
    (this.byType[code] ??= new RowList()).push(i);
    this.cDur = holdFloat(this.cDur, dur);
    this.cType = holdIndex(this.cType, code);
    this.cSubject = holdIndex(this.cSubject, subjectId);
    this.cSession = holdIndex(this.cSession, session);
    this.cId[i] = id;
    this.cTs[i] = ts ?? NaN;
    this.cDur[i] = dur;
    this.cStatus[i] = status;
    this.cType[i] = code;
    this.cSubject[i] = subjectId;
    this.cSession[i] = session;
    if (code === 0) {
      const j = this.ln++;
      if (j >= this.lId.length) {
        const need = j + 1;
        this.lId = grow(this.lId, need);
        this.lTtft = grow(this.lTtft, need);
        this.lIn = grow(this.lIn, need);
        this.lOut = grow(this.lOut, need);
        this.lCached = grow(this.lCached, need);
      }
      this.lTtft = holdFloat(this.lTtft, ttft ?? NaN);
      this.lIn = holdFloat(this.lIn, tin ?? NaN);
      this.lOut = holdFloat(this.lOut, tout ?? NaN);
      this.lCached = holdFloat(this.lCached, tcached ?? NaN);
      this.lId[j] = id;
      this.lTtft[j] = ttft ?? NaN;
      this.lIn[j] = tin ?? NaN;
      this.lOut[j] = tout ?? NaN;
      this.lCached[j] = tcached ?? NaN;
      this.cLlm[i] = j;
    } else this.cLlm[i] = -1;

    if (fail === null) {
      this.cFail[i] = -1;
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
    this.cFail = holdIndex(this.cFail, g);
    this.cFail[i] = g;
    const k = this.fn++;
    if (k >= this.fId.length) {
      this.fId = grow(this.fId, k + 1);
      this.fRow = grow(this.fRow, k + 1);
    }
    this.fId[k] = id;
    this.fRow[k] = i;
  }

  callCode(type: CallType): number {
    return this.typeIds.get(type) as number;
  }
}

const models = new WeakMap<Database.Database, TriageModel>();

function modelOf(db: Database.Database): TriageModel {
  let m = models.get(db);
  if (!m) {
    m = new TriageModel(db);
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

/** Loads the model of a connection without blocking the event loop for long (server start, after each batch). */
export function warmTriageModel(db: Database.Database): Promise<void> {
  return modelOf(db).warm();
}
