// Span entries held as packed columns instead of one JS object per event (issue 19.3): the span tree of the
// largest session (254k events at 1.6 GB) cost ~400 bytes of heap per event as objects. Numbers sit in typed
// arrays (NaN stands for null), strings in one table per set (types, names, models, tools, span ids and
// session ids repeat), so an event costs about a hundred bytes. `at(k)` materializes one SpanEntry on demand;
// the tree is built from the columns and the strings' keys, never from objects.
import type { SpanEntry } from './span-tree';

export const NONE = 0xffffffff;

/** Strings by index: each distinct value stored once. */
class StringTable {
  readonly values: string[] = [];
  private index: Map<string, number> | null = new Map();
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
  id: Float64Array;
  ts: Float64Array;
  dur: Float64Array;
  status: Uint8Array;
  dup: Uint8Array;
  private readonly strings = new StringTable();
  private sessionIdK: Uint32Array;
  private typeK: Uint32Array;
  private nameK: Uint32Array;
  private spanIdK: Uint32Array;
  private parentSpanIdK: Uint32Array;
  private modelK: Uint32Array;
  private toolK: Uint32Array;
  private ttft: Float64Array;
  private tokensIn: Float64Array;
  private tokensOut: Float64Array;
  /** -1: absent */
  private rIdxAt: Int32Array;

  constructor(capacity = 0) {
    const c = Math.max(0, capacity);
    this.id = new Float64Array(c);
    this.ts = new Float64Array(c);
    this.dur = new Float64Array(c);
    this.status = new Uint8Array(c);
    this.dup = new Uint8Array(c);
    this.sessionIdK = new Uint32Array(c);
    this.typeK = new Uint32Array(c);
    this.nameK = new Uint32Array(c);
    this.spanIdK = new Uint32Array(c);
    this.parentSpanIdK = new Uint32Array(c);
    this.modelK = new Uint32Array(c);
    this.toolK = new Uint32Array(c);
    this.ttft = new Float64Array(c);
    this.tokensIn = new Float64Array(c);
    this.tokensOut = new Float64Array(c);
    this.rIdxAt = new Int32Array(c);
  }

  static of(entries: readonly SpanEntry[]): EntryColumns {
    const cols = new EntryColumns(entries.length);
    for (const e of entries) cols.push(e);
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

  /** Appends row k of `from` (a live append: the rows already loaded, then the new ones). */
  pushFrom(from: EntryColumns, k: number): void {
    const f = from.strings;
    this.pushRow(
      from.id[k],
      f.values[from.sessionIdK[k]],
      f.values[from.typeK[k]],
      f.values[from.nameK[k]],
      f.get(from.spanIdK[k]),
      f.get(from.parentSpanIdK[k]),
      from.status[k],
      orNull(from.ts[k]),
      from.dur[k],
      f.get(from.modelK[k]),
      f.get(from.toolK[k]),
      orNull(from.ttft[k]),
      orNull(from.tokensIn[k]),
      orNull(from.tokensOut[k]),
      from.dup[k],
      from.rIdxAt[k],
    );
  }

  /** Drops the spare capacity (a copy, only when there is some) and the strings' lookup map. */
  seal(): void {
    if (this.n < this.id.length) {
      const n = this.n;
      this.id = this.id.slice(0, n);
      this.ts = this.ts.slice(0, n);
      this.dur = this.dur.slice(0, n);
      this.status = this.status.slice(0, n);
      this.dup = this.dup.slice(0, n);
      this.sessionIdK = this.sessionIdK.slice(0, n);
      this.typeK = this.typeK.slice(0, n);
      this.nameK = this.nameK.slice(0, n);
      this.spanIdK = this.spanIdK.slice(0, n);
      this.parentSpanIdK = this.parentSpanIdK.slice(0, n);
      this.modelK = this.modelK.slice(0, n);
      this.toolK = this.toolK.slice(0, n);
      this.ttft = this.ttft.slice(0, n);
      this.tokensIn = this.tokensIn.slice(0, n);
      this.tokensOut = this.tokensOut.slice(0, n);
      this.rIdxAt = this.rIdxAt.slice(0, n);
    }
    this.strings.seal();
  }

  private grow(): void {
    const c = Math.max(16, Math.ceil(this.id.length * 1.5));
    const widen = <T extends Float64Array | Uint32Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(c);
      b.set(a);
      return b;
    };
    this.id = widen(this.id, (n) => new Float64Array(n));
    this.ts = widen(this.ts, (n) => new Float64Array(n));
    this.dur = widen(this.dur, (n) => new Float64Array(n));
    this.status = widen(this.status, (n) => new Uint8Array(n));
    this.dup = widen(this.dup, (n) => new Uint8Array(n));
    this.sessionIdK = widen(this.sessionIdK, (n) => new Uint32Array(n));
    this.typeK = widen(this.typeK, (n) => new Uint32Array(n));
    this.nameK = widen(this.nameK, (n) => new Uint32Array(n));
    this.spanIdK = widen(this.spanIdK, (n) => new Uint32Array(n));
    this.parentSpanIdK = widen(this.parentSpanIdK, (n) => new Uint32Array(n));
    this.modelK = widen(this.modelK, (n) => new Uint32Array(n));
    this.toolK = widen(this.toolK, (n) => new Uint32Array(n));
    this.ttft = widen(this.ttft, (n) => new Float64Array(n));
    this.tokensIn = widen(this.tokensIn, (n) => new Float64Array(n));
    this.tokensOut = widen(this.tokensOut, (n) => new Float64Array(n));
    this.rIdxAt = widen(this.rIdxAt, (n) => new Int32Array(n));
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
