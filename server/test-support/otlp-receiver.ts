import http from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

// An OTLP/HTTP trace receiver for tests: decodes each request as a collector would, protobuf with the message
// definitions of opentelemetry-proto (opentelemetry/proto/collector/trace/v1/trace_service.proto and
// trace/v1/trace.proto, common/v1, resource/v1: the field numbers below are those of the published .proto
// files), JSON as OTLP/JSON, and records every span it accepted.

const root = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'] } },
          fields: {
            stringValue: { type: 'string', id: 1 },
            boolValue: { type: 'bool', id: 2 },
            intValue: { type: 'int64', id: 3 },
            doubleValue: { type: 'double', id: 4 },
            arrayValue: { type: 'ArrayValue', id: 5 },
            kvlistValue: { type: 'KeyValueList', id: 6 },
            bytesValue: { type: 'bytes', id: 7 },
          },
        },
        ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
        KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
        KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
        InstrumentationScope: { fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 }, attributes: { rule: 'repeated', type: 'KeyValue', id: 3 }, droppedAttributesCount: { type: 'uint32', id: 4 } } },
        Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 }, droppedAttributesCount: { type: 'uint32', id: 2 } } },
        Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
        Span: {
          fields: {
            traceId: { type: 'bytes', id: 1 },
            spanId: { type: 'bytes', id: 2 },
            traceState: { type: 'string', id: 3 },
            parentSpanId: { type: 'bytes', id: 4 },
            flags: { type: 'fixed32', id: 16 },
            name: { type: 'string', id: 5 },
            kind: { type: 'int32', id: 6 },
            startTimeUnixNano: { type: 'fixed64', id: 7 },
            endTimeUnixNano: { type: 'fixed64', id: 8 },
            attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
            droppedAttributesCount: { type: 'uint32', id: 10 },
            droppedEventsCount: { type: 'uint32', id: 12 },
            droppedLinksCount: { type: 'uint32', id: 14 },
            status: { type: 'Status', id: 15 },
          },
        },
        ScopeSpans: { fields: { scope: { type: 'InstrumentationScope', id: 1 }, spans: { rule: 'repeated', type: 'Span', id: 2 }, schemaUrl: { type: 'string', id: 3 } } },
        ResourceSpans: { fields: { resource: { type: 'Resource', id: 1 }, scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 }, schemaUrl: { type: 'string', id: 3 } } },
        ExportTraceServiceRequest: { fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } } },
      },
    },
  },
});
const Request = root.lookupType('otlp.ExportTraceServiceRequest');

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startTimeUnixNano: string;
  attributes: Record<string, unknown>;
  status: number;
}

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  requests: { contentType: string; status: number }[];
  /** answer the next requests with these statuses (then 200 again) */
  failNext(...statuses: number[]): void;
  /** wait this long before answering each request */
  delayMs: number;
  close(): Promise<void>;
}

const hex = (b: Uint8Array | string | undefined) => (b === undefined ? '' : typeof b === 'string' ? b : Buffer.from(b).toString('hex'));

function valueOf(v: Record<string, unknown> | undefined): unknown {
  if (!v) return undefined;
  for (const k of ['stringValue', 'boolValue', 'doubleValue']) if (v[k] !== undefined) return v[k];
  if (v.intValue !== undefined) return Number(v.intValue as number | string);
  return undefined;
}

function spansOf(doc: { resourceSpans?: { scopeSpans?: { spans?: Record<string, unknown>[] }[] }[] }): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of doc.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? []) {
        const attrs: Record<string, unknown> = {};
        for (const kv of (s.attributes as { key: string; value: Record<string, unknown> }[]) ?? []) attrs[kv.key] = valueOf(kv.value);
        const parent = hex(s.parentSpanId as Uint8Array | string | undefined);
        out.push({
          traceId: hex(s.traceId as Uint8Array | string),
          spanId: hex(s.spanId as Uint8Array | string),
          parentSpanId: parent === '' ? null : parent,
          name: String(s.name ?? ''),
          startTimeUnixNano: String(s.startTimeUnixNano ?? ''),
          attributes: attrs,
          status: Number((s.status as { code?: number } | undefined)?.code ?? 0),
        });
      }
  return out;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const failures: number[] = [];
  const r: Receiver = {
    url: '',
    spans: [],
    requests: [],
    delayMs: 0,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      setTimeout(() => {
        const contentType = req.headers['content-type'] ?? '';
        const status = failures.shift() ?? 200;
        r.requests.push({ contentType, status });
        if (status === 200) {
          const body = Buffer.concat(chunks);
          const doc = contentType.includes('json')
            ? (JSON.parse(body.toString('utf8')) as Parameters<typeof spansOf>[0])
            : (Request.toObject(Request.decode(body), { longs: String, bytes: Array }) as Parameters<typeof spansOf>[0]);
          // bytes come back as plain arrays with { bytes: Array }: make them Uint8Array for hex()
          const fix = (d: unknown): unknown => (Array.isArray(d) && d.every((x) => typeof x === 'number') ? Uint8Array.from(d as number[]) : Array.isArray(d) ? d.map(fix) : d && typeof d === 'object' ? Object.fromEntries(Object.entries(d).map(([k, v]) => [k, fix(v)])) : d);
          r.spans.push(...spansOf(contentType.includes('json') ? doc : (fix(doc) as Parameters<typeof spansOf>[0])));
        }
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(status === 200 ? '{}' : '{"error":"try later"}');
      }, r.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
  return r;
}
