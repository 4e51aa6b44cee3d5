// Serialises debug-log entries exactly as the logger's JSON.stringify would (FORMAT §3.1): no spaces, key order
// v?, ts, dur, sid, type, name, spanId, parentSpanId?, status, attrs, rIdx?. Lines are built by concatenation
// because stringifying an object per line is the single biggest cost at 1 GiB; string values still go
// through JSON.stringify, which is native and escapes exactly like the logger (including lone surrogates).

export type Status = 'ok' | 'error';

export interface Entry {
  v?: number;
  ts: number;
  dur: number;
  type: string;
  name: string;
  spanId: string;
  parentSpanId?: string;
  status: Status;
  /** Already-serialised attrs object, from `Attrs.toString()`. */
  attrs: string;
}

/** Builds an attrs object in insertion order; undefined values are dropped like JSON.stringify drops them. */
export class Attrs {
  private body = '';

  str(key: string, value: string | undefined): this {
    if (value !== undefined) this.body += (this.body ? ',"' : '"') + key + '":' + JSON.stringify(value);
    return this;
  }

  num(key: string, value: number | undefined): this {
    if (value !== undefined) this.body += (this.body ? ',"' : '"') + key + '":' + String(value);
    return this;
  }

  bool(key: string, value: boolean | undefined): this {
    if (value !== undefined) this.body += (this.body ? ',"' : '"') + key + '":' + (value ? 'true' : 'false');
    return this;
  }

  toString(): string {
    return '{' + this.body + '}';
  }
}

/**
 * One line without its trailing newline. `sidJson` is the session id already passed through JSON.stringify
 * (the writer of a file computes it once). `rIdx` is stamped only when > 0, as the logger does.
 */
export function formatEntry(e: Entry, sidJson: string, rIdx: number): string {
  let s = e.v === undefined ? '{"ts":' : '{"v":' + e.v + ',"ts":';
  s += e.ts + ',"dur":' + e.dur + ',"sid":' + sidJson + ',"type":"' + e.type + '","name":' + JSON.stringify(e.name);
  s += ',"spanId":' + JSON.stringify(e.spanId);
  if (e.parentSpanId !== undefined) s += ',"parentSpanId":' + JSON.stringify(e.parentSpanId);
  s += ',"status":"' + e.status + '","attrs":' + e.attrs;
  if (rIdx > 0) s += ',"rIdx":' + rIdx;
  return s + '}';
}

/** The logger's attribute cap (LVS/LMAR: 5,000; LLEG: 500): cut in UTF-16 units, then the bare marker. */
export function truncateAttr(value: string, limit: number): string {
  return value.length > limit ? value.slice(0, limit) + '[truncated]' : value;
}

/** OTel attribute capture (MF): at most 64,000 characters *including* the suffix. */
export const OTEL_MAX_CHARS = 64_000;

export function otelCap(value: string): string {
  if (value.length <= OTEL_MAX_CHARS) return value;
  const suffix = `...[truncated, original ${value.length} chars]`;
  return value.slice(0, OTEL_MAX_CHARS - suffix.length) + suffix;
}
