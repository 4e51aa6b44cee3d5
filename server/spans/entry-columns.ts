// Span entries held as packed columns instead of one JS object per event (issue 19.3): the span tree of the
// largest session (254k events at 1.6 GB) cost ~400 bytes of heap per event as objects. Numbers sit in typed
// arrays (NaN stands for null), strings in one table per set (types, names, models, tools, span ids and
// session ids repeat), so an event costs about a hundred bytes. `at(k)` materializes one SpanEntry on demand;
// the tree is built from the columns and the strings' keys, never from objects.
import type { SpanEntry } from './span-tree';

export const NONE = 0xffffffff;

/** Strings by index: each distinct value stored once. */
class StringTable {
  /** built on first lookup, from `values` */
  private index: Map<string, number> | null = null;
  constructor(readonly values: string[] = []) {}
  add(v: string | null | undefined): number {
    if (v === null || v === undefined) return NONE;
    const index = this.lookup();
    let k = index.get(v);
    if (k === undefined) {
      k = this.values.length;
      this.values.push(v);
      index.set(v, k);
    }
    return k;
  }
  get(k: number): string | null {
    return k === NONE ? null : this.values[k];
  }
  /** the index of `v`, NONE when no row holds it */
  keyOf(v: string | null | undefined): number {
    if (v === null || v === undefined) return NONE;
    return this.lookup().get(v) ?? NONE;
  }
  /** the same strings under the same keys, to add to without touching this table */
  copy(): StringTable {
    return new StringTable(this.values.slice());
  }
  /** the lookup map is only needed while adding and while the tree is built: dropped here, rebuilt if asked again */
  seal(): void {
    this.index = null;
  }
  private lookup(): Map<string, number> {
    if (this.index === null) this.index = new Map(this.values.map((v, k) => [v, k]));
    return this.index;
  }
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? Number.NaN : v);
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The columns of `events` a tree needs, filled row by row (`push`, `pushRow`) into arrays sized for the rows the
 * caller expects and grown if more come, so a session's entries never exist as objects (issue 19.3: a 254k-event
 * family cost ~220 MB of transient heap as objects and their parsed rows).
 */
export class EntryColumns {
  private n = 0;
  id = new Float64Array(0);
  ts = new Float64Array(0);
  dur = new Float64Array(0);
  status = new Uint8Array(0);
  dup = new Uint8Array(0);
  private strings = new StringTable();
  private sessionIdK = new Uint32Array(0);
  private typeK = new Uint32Array(0);
  private nameK = new Uint32Array(0);
  private spanIdK = new Uint32Array(0);
  private parentSpanIdK = new Uint32Array(0);
  private modelK = new Uint32Array(0);
  private toolK = new Uint32Array(0);
  private ttft = new Float64Array(0);
  private tokensIn = new Float64Array(0);
  private tokensOut = new Float64Array(0);
  /** -1: absent */
  private rIdxAt = new Int32Array(0);

  constructor(capacity = 0) {
    if (capacity > 0) this.copyColumns(this, capacity);
  }

  static of(entries: readonly SpanEntry[]): EntryColumns {
    const cols = new EntryColumns(entries.length);
    for (const e of entries) cols.push(e);
    return cols;
  }

  /**
   * A copy of `from` with room for `capacity` rows, to append to (a live append: the rows already loaded, then the
   * new ones). The columns are copied whole and the strings keep their keys; `from` is left as it was.
   */
  static extending(from: EntryColumns, capacity: number): EntryColumns {
    const cols = new EntryColumns();
    cols.strings = from.strings.copy();
    cols.copyColumns(from, Math.max(capacity, from.n));
    return cols;
  }

  get length(): number {
    return this.n;
  }

  /** Appends one row; `name` null stands for the type (the loader's rule). */
  pushRow(
    id: number,
    sessionId: string,
    type: string,
    name: string | null,
    spanId: string | null,
    parentSpanId: string | null,
    status: number,
    ts: number | null,
    dur: number,
    model: string | null,
    tool: string | null,
    ttft: number | null,
    tokensIn: number | null,
    tokensOut: number | null,
    dup: number,
    rIdx: number | null | undefined,
  ): void {
    if (this.n === this.id.length) this.grow();
    const k = this.n++;
    const s = this.strings;
    this.id[k] = id;
    this.ts[k] = num(ts);
    this.dur[k] = dur;
    this.status[k] = status;
    this.dup[k] = dup;
    this.sessionIdK[k] = s.add(sessionId);
    this.typeK[k] = s.add(type);
    this.nameK[k] = s.add(name ?? type);
    this.spanIdK[k] = s.add(spanId);
    this.parentSpanIdK[k] = s.add(parentSpanId);
    this.modelK[k] = s.add(model);
    this.toolK[k] = s.add(tool);
    this.ttft[k] = num(ttft);
    this.tokensIn[k] = num(tokensIn);
    this.tokensOut[k] = num(tokensOut);
    this.rIdxAt[k] = rIdx === undefined || rIdx === null ? -1 : rIdx;
  }

  push(e: SpanEntry): void {
    this.pushRow(e.id, e.sessionId, e.type, e.name, e.spanId, e.parentSpanId, e.status, e.ts, e.dur, e.model, e.tool, e.ttft, e.tokensIn, e.tokensOut, e.dup, e.rIdx);
  }

  /** Drops the spare capacity (a copy, only when there is some) and the strings' lookup map. */
  seal(): void {
    if (this.n < this.id.length) this.copyColumns(this, this.n);
    this.strings.seal();
  }

  private grow(): void {
    this.copyColumns(this, Math.max(16, Math.ceil(this.id.length * 1.5)));
  }

  /** Every column becomes a new array of `capacity` holding the first rows of `from`'s (`from` may be this). */
  private copyColumns(from: EntryColumns, capacity: number): void {
    const n = Math.min(from.n, capacity);
    const copy = <T extends Float64Array | Uint32Array | Int32Array | Uint8Array>(a: T, make: (c: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, n));
      return b;
    };
    const f64 = (c: number) => new Float64Array(c);
    const u32 = (c: number) => new Uint32Array(c);
    const u8 = (c: number) => new Uint8Array(c);
    this.id = copy(from.id, f64);
    this.ts = copy(from.ts, f64);
    this.dur = copy(from.dur, f64);
    this.status = copy(from.status, u8);
    this.dup = copy(from.dup, u8);
    this.sessionIdK = copy(from.sessionIdK, u32);
    this.typeK = copy(from.typeK, u32);
    this.nameK = copy(from.nameK, u32);
    this.spanIdK = copy(from.spanIdK, u32);
    this.parentSpanIdK = copy(from.parentSpanIdK, u32);
    this.modelK = copy(from.modelK, u32);
    this.toolK = copy(from.toolK, u32);
    this.ttft = copy(from.ttft, f64);
    this.tokensIn = copy(from.tokensIn, f64);
    this.tokensOut = copy(from.tokensOut, f64);
    this.rIdxAt = copy(from.rIdxAt, (c) => new Int32Array(c));
    this.n = n;
  }

  // Keys: every string column shares one table, so equal strings have equal keys across columns (a parentSpanId's
  // key is the key of the spanId it names). NONE stands for null.
  /** how many distinct strings the rows hold: every key is below it */
  get stringCount(): number {
    return this.strings.values.length;
  }
  keyOf(v: string | null | undefined): number {
    return this.strings.keyOf(v);
  }
  stringAt(key: number): string | null {
    return this.strings.get(key);
  }
  sessionKey(k: number): number {
    return this.sessionIdK[k];
  }
  typeKey(k: number): number {
    return this.typeK[k];
  }
  spanIdKey(k: number): number {
    return this.spanIdK[k];
  }
  parentSpanIdKey(k: number): number {
    return this.parentSpanIdK[k];
  }
  /** the run that wrote row k (0 when absent) */
  run(k: number): number {
    return Math.max(0, this.rIdxAt[k]);
  }

  type(k: number): string {
    return this.strings.values[this.typeK[k]];
  }
  sessionId(k: number): string {
    return this.strings.values[this.sessionIdK[k]];
  }
  name(k: number): string {
    return this.strings.values[this.nameK[k]];
  }
  spanId(k: number): string | null {
    return this.strings.get(this.spanIdK[k]);
  }
  parentSpanId(k: number): string | null {
    return this.strings.get(this.parentSpanIdK[k]);
  }
  model(k: number): string | null {
    return this.strings.get(this.modelK[k]);
  }
  tool(k: number): string | null {
    return this.strings.get(this.toolK[k]);
  }

  /** entry k as an object (a fresh one each call) */
  at(k: number): SpanEntry {
    const s = this.strings;
    const e: SpanEntry = {
      id: this.id[k],
      sessionId: s.values[this.sessionIdK[k]],
      type: s.values[this.typeK[k]],
      name: s.values[this.nameK[k]],
      spanId: s.get(this.spanIdK[k]),
      parentSpanId: s.get(this.parentSpanIdK[k]),
      status: this.status[k],
      ts: orNull(this.ts[k]),
      dur: this.dur[k],
      model: s.get(this.modelK[k]),
      tool: s.get(this.toolK[k]),
      ttft: orNull(this.ttft[k]),
      tokensIn: orNull(this.tokensIn[k]),
      tokensOut: orNull(this.tokensOut[k]),
      dup: this.dup[k],
    };
    if (this.rIdxAt[k] >= 0) e.rIdx = this.rIdxAt[k];
    return e;
  }

  toArray(): SpanEntry[] {
    const out = new Array<SpanEntry>(this.n);
    for (let k = 0; k < this.n; k++) out[k] = this.at(k);
    return out;
  }
}
