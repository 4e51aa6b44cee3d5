// Span entries held as packed columns instead of one JS object per event (issue 19.3): the span tree of the
// largest session (254k events at 1.6 GB) cost ~400 bytes of heap per event as objects. Numbers sit in typed
// arrays (NaN stands for null), strings in one table per set (types, names, models, tools, span ids and
// session ids repeat), so an event costs about a hundred bytes. `at(k)` materializes one SpanEntry on demand.
import type { SpanEntry } from './span-tree';

const NONE = 0xffffffff;

/** Strings by index: each distinct value stored once. */
class StringTable {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  add(v: string | null | undefined): number {
    if (v === null || v === undefined) return NONE;
    let k = this.index.get(v);
    if (k === undefined) {
      k = this.values.length;
      this.values.push(v);
      this.index.set(v, k);
    }
    return k;
  }
  get(k: number): string | null {
    return k === NONE ? null : this.values[k];
  }
  /** the lookup map is only needed while adding */
  seal(): void {
    this.index.clear();
  }
}

const num = (v: number | null | undefined) => (v === null || v === undefined ? Number.NaN : v);
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

export class EntryColumns {
  readonly length: number;
  readonly id: Float64Array;
  readonly ts: Float64Array;
  readonly dur: Float64Array;
  readonly status: Uint8Array;
  readonly dup: Uint8Array;
  private readonly strings: StringTable;
  private readonly sessionIdK: Uint32Array;
  private readonly typeK: Uint32Array;
  private readonly nameK: Uint32Array;
  private readonly spanIdK: Uint32Array;
  private readonly parentSpanIdK: Uint32Array;
  private readonly modelK: Uint32Array;
  private readonly toolK: Uint32Array;
  private readonly ttft: Float64Array;
  private readonly tokensIn: Float64Array;
  private readonly tokensOut: Float64Array;
  /** -1: absent */
  private readonly rIdx: Int32Array;

  constructor(entries: readonly SpanEntry[]) {
    const n = entries.length;
    this.length = n;
    this.id = new Float64Array(n);
    this.ts = new Float64Array(n);
    this.dur = new Float64Array(n);
    this.status = new Uint8Array(n);
    this.dup = new Uint8Array(n);
    this.strings = new StringTable();
    this.sessionIdK = new Uint32Array(n);
    this.typeK = new Uint32Array(n);
    this.nameK = new Uint32Array(n);
    this.spanIdK = new Uint32Array(n);
    this.parentSpanIdK = new Uint32Array(n);
    this.modelK = new Uint32Array(n);
    this.toolK = new Uint32Array(n);
    this.ttft = new Float64Array(n);
    this.tokensIn = new Float64Array(n);
    this.tokensOut = new Float64Array(n);
    this.rIdx = new Int32Array(n);
    const s = this.strings;
    for (let k = 0; k < n; k++) {
      const e = entries[k];
      this.id[k] = e.id;
      this.ts[k] = num(e.ts);
      this.dur[k] = e.dur;
      this.status[k] = e.status;
      this.dup[k] = e.dup;
      this.sessionIdK[k] = s.add(e.sessionId);
      this.typeK[k] = s.add(e.type);
      this.nameK[k] = s.add(e.name);
      this.spanIdK[k] = s.add(e.spanId);
      this.parentSpanIdK[k] = s.add(e.parentSpanId);
      this.modelK[k] = s.add(e.model);
      this.toolK[k] = s.add(e.tool);
      this.ttft[k] = num(e.ttft);
      this.tokensIn[k] = num(e.tokensIn);
      this.tokensOut[k] = num(e.tokensOut);
      this.rIdx[k] = e.rIdx === undefined ? -1 : e.rIdx;
    }
    s.seal();
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
    if (this.rIdx[k] >= 0) e.rIdx = this.rIdx[k];
    return e;
  }

  toArray(): SpanEntry[] {
    const out = new Array<SpanEntry>(this.length);
    for (let k = 0; k < this.length; k++) out[k] = this.at(k);
    return out;
  }
}
