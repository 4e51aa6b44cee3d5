// Reads OTLP JSON the way VS Code's Agent Debug Log import does (INTEROP §1): one document with
// `resourceSpans`, or JSON lines each holding one (the OpenTelemetry file exporter and Copilot's
// `otel.outfile`). Every resourceSpans[].scopeSpans[].spans[] is read; nothing else is assumed.

export interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
  kvlistValue?: { values?: { key: string; value: OtlpValue }[] };
}

export interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  parentSpanId?: string;
  name?: string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number; message?: string };
  events?: { name?: string; timeUnixNano?: string | number; attributes?: { key: string; value: OtlpValue }[] }[];
}

export interface ReadSpan {
  span: OtlpSpan;
  attrs: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** the file's copilotChat.sessionId, when it has one */
  documentSessionId: string | null;
}

export class OtlpReadError extends Error {}

export function valueOf(v: OtlpValue | undefined): unknown {
  if (!v) return undefined;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return typeof v.intValue === 'string' ? Number(v.intValue) : v.intValue;
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue) return (v.arrayValue.values ?? []).map(valueOf);
  if (v.kvlistValue) return Object.fromEntries((v.kvlistValue.values ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
  return undefined;
}

export function attributesOf(list: { key: string; value: OtlpValue }[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) if (kv && typeof kv.key === 'string') out[kv.key] = valueOf(kv.value);
  return out;
}

interface Doc {
  resourceSpans?: unknown;
  copilotChat?: { sessionId?: unknown };
}

function docsOf(text: string): Doc[] {
  try {
    const whole = JSON.parse(text) as Doc;
    if (whole && typeof whole === 'object' && whole.resourceSpans) return [whole];
  } catch {
    /* not one document: JSON lines */
  }
  const docs: Doc[] = [];
  for (const [i, l] of text.split('\n').entries()) {
    if (l.trim() === '') continue;
    let d: Doc;
    try {
      d = JSON.parse(l) as Doc;
    } catch {
      throw new OtlpReadError(`line ${i + 1} is not JSON: neither one OTLP document nor OTLP JSON lines`);
    }
    if (d && typeof d === 'object' && d.resourceSpans) docs.push(d);
  }
  return docs;
}

export function readOtlp(text: string): ReadSpan[] {
  const out: ReadSpan[] = [];
  for (const doc of docsOf(text)) {
    if (!Array.isArray(doc.resourceSpans)) throw new OtlpReadError('resourceSpans is not an array');
    const documentSessionId = typeof doc.copilotChat?.sessionId === 'string' ? doc.copilotChat.sessionId : null;
    for (const rs of doc.resourceSpans as { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans?: unknown }[]) {
      if (!Array.isArray(rs?.scopeSpans)) throw new OtlpReadError('a resourceSpans entry has no scopeSpans array');
      const resource = attributesOf(rs.resource?.attributes);
      for (const ss of rs.scopeSpans as { spans?: OtlpSpan[] }[]) for (const span of ss?.spans ?? []) out.push({ span, attrs: attributesOf(span.attributes), resource, documentSessionId });
    }
  }
  if (out.length === 0) throw new OtlpReadError('the file has no spans (no resourceSpans[].scopeSpans[].spans[])');
  return out;
}
