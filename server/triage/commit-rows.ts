import { CALL_TYPES } from '../../shared/triage-terms';

/**
 * The triage model's rows of one commit of the ingest, as the ingest wrote them, handed to the server's main thread
 * right after the commit (issue 19). The model adds them from memory instead of reading them back: a commit group of
 * a backfill holds ~100,000 events, and reading their ~50,000 model rows back through SQL and JSON cost ~50 of the
 * ~70 ms of CPU a sync took (SQL 33, parse 18, adding 17–27 on the 1.6 GiB bench archive), 100–180 ms of waiting on
 * two cores the backfill keeps busy, which every triage request after a commit paid.
 *
 * A batch holds every row the model keeps (`isTriageRow`, the filter of the model's own SQL) whose event id is in
 * (after, through], in id order: the ingest reads `after` when its group's transaction begins and `through` once it
 * committed, and the events table is written by that transaction alone.
 */
export interface CommitRows {
  /** the archive's schema cookie at the commit: rows of tables since recreated (a rebuild) are not the model's */
  schema: number;
  after: number;
  through: number;
  n: number;
  /** NUM values a row: id, ts, dur, ttft, tokens in, out and cached (NaN for NULL; dur NULL as 0, as the SQL path stores it) */
  num: Float64Array[];
  /** INT values a row: status, session number, dup, then indexes into `strings` of type, name, model, tool and fail (-1 for NULL) */
  int: Int32Array[];
  strings: string[];
}

export const NUM = 7;
export const INT = 8;
/** rows per chunk: the chunks are transferred, not copied, and a chunk is ~700 kB */
export const CHUNK_ROWS = 8192;

const CALLS = new Set<string>(CALL_TYPES);

/**
 * Chunks the server's model has added and handed back (`recycleCommitRowChunks`), reused for the next groups: a
 * chunk per 8,192 rows allocated and freed in two threads at every commit kept ~10 MB more of the process resident
 * once a 1.6 GiB backfill was over (glibc keeps what such frees leave). At most a group's worth is kept.
 */
const POOL_MAX = 8;
const numPool: Float64Array[] = [];
const intPool: Int32Array[] = [];

export function recycleCommitRowChunks(num: Float64Array[], int: Int32Array[]): void {
  for (const a of num) if (a.length === CHUNK_ROWS * NUM && numPool.length < POOL_MAX) numPool.push(a);
  for (const a of int) if (a.length === CHUNK_ROWS * INT && intPool.length < POOL_MAX) intPool.push(a);
}

/** Empties the pools (an idle ingest worker, worker.ts): the next group allocates its chunks again. */
export function releaseCommitRowChunks(): void {
  numPool.length = 0;
  intPool.length = 0;
}

/** The model's filter (model.ts rowsStmt): calls, events that took time or failed, failures, and copies. */
export function isTriageRow(type: string, dur: number, status: number, fail: string | null, dup: number): boolean {
  return CALLS.has(type) || dur > 0 || status === 1 || fail !== null || dup > 0;
}

/**
 * Collects the rows of the group the ingest has open. Inactive outside a group (`begin` … `take` or `discard`), so
 * that writes no batch describes (a rebuild's refill) are read back by SQL as before.
 */
export class CommitRowsCollector {
  private after = -1;
  private last = -1;
  private broken = false;
  private n = 0;
  private num: Float64Array[] = [];
  private int: Int32Array[] = [];
  private strings: string[] = [];
  private stringIds = new Map<string, number>();

  /** Whether a group is open (`begin` was called, and neither `take` nor `discard` since). */
  get active(): boolean {
    return this.after >= 0;
  }

  begin(after: number): void {
    this.reset();
    this.after = after;
    this.last = after;
  }

  add(id: number, type: string, name: string | null, model: string | null, tool: string | null, status: number, ts: number | null, dur: number | null, ttft: number | null, tokensIn: number | null, tokensOut: number | null, tokensCached: number | null, session: number, fail: string | null, dup: number): void {
    if (this.after < 0) return;
    const d = dur === null || Number.isNaN(dur) ? 0 : dur;
    if (!isTriageRow(type, d, status, fail, dup)) return;
    // ids only grow inside a group; anything else (a refill of old lines) is left to SQL: the batch is not sent
    if (id <= this.last) this.broken = true;
    this.last = id;
    const k = this.n % CHUNK_ROWS;
    if (k === 0) {
      this.num.push(numPool.pop() ?? new Float64Array(CHUNK_ROWS * NUM));
      this.int.push(intPool.pop() ?? new Int32Array(CHUNK_ROWS * INT));
    }
    const num = this.num[this.num.length - 1];
    const int = this.int[this.int.length - 1];
    const a = k * NUM;
    num[a] = id;
    num[a + 1] = ts ?? NaN;
    num[a + 2] = d;
    num[a + 3] = ttft ?? NaN;
    num[a + 4] = tokensIn ?? NaN;
    num[a + 5] = tokensOut ?? NaN;
    num[a + 6] = tokensCached ?? NaN;
    const b = k * INT;
    int[b] = status;
    int[b + 1] = session;
    int[b + 2] = dup;
    int[b + 3] = this.stringId(type);
    int[b + 4] = this.stringId(name);
    int[b + 5] = this.stringId(model);
    int[b + 6] = this.stringId(tool);
    int[b + 7] = this.stringId(fail);
    this.n++;
  }

  /**
   * The group's batch once it committed through event id `through`, under schema cookie `schema`; null when no group
   * was open or its ids went back.
   */
  take(through: number, schema: number): CommitRows | null {
    if (this.after < 0 || this.broken || this.last > through) {
      this.discard();
      return null;
    }
    const rows: CommitRows = { schema, after: this.after, through, n: this.n, num: this.num, int: this.int, strings: this.strings };
    this.after = -1;
    this.reset();
    return rows;
  }

  /** The group was rolled back. */
  discard(): void {
    recycleCommitRowChunks(this.num, this.int);
    this.after = -1;
    this.reset();
  }

  private reset(): void {
    this.broken = false;
    this.n = 0;
    this.num = [];
    this.int = [];
    this.strings = [];
    this.stringIds = new Map();
  }

  private stringId(s: string | null): number {
    if (s === null) return -1;
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(s);
      this.stringIds.set(s, id);
    }
    return id;
  }
}

/** The buffers of a batch, to transfer with its message. */
export function commitRowsTransfer(rows: CommitRows): ArrayBuffer[] {
  return [...rows.num.map((a) => a.buffer as ArrayBuffer), ...rows.int.map((a) => a.buffer as ArrayBuffer)];
}
