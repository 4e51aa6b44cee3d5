import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { SessionSource } from '../../shared/api';
import { VERSION } from '../version';
import { spanAttributes, type AttributeOptions } from './otlp-attributes';
import type { ExportSpan, SessionSpans } from './session-spans';

const SCOPE = { name: 'chronoscope', version: VERSION };

const hr = (ms: number): HrTime => [Math.floor(ms / 1000), (ms % 1000) * 1e6];

/** `service.name` by the product that wrote the session (INTEROP §2: it names the service in every collector). */
export const SERVICE_NAME: Record<SessionSource, string> = { vscode: 'github-copilot-chat', cli: 'github-copilot-cli' };

/**
 * The resource every span of one session shares: service and session, as collectors and Langfuse group them. The
 * host is said twice: `service.name` for collectors, `chronoscope.source` ('vscode' | 'cli', the API's word) for
 * our own import and for queries that should not depend on a service name.
 */
export function sessionResource(rootSessionId: string, source: SessionSource = 'vscode'): Resource {
  return resourceFromAttributes({
    'service.name': SERVICE_NAME[source],
    'service.version': VERSION,
    'session.id': rootSessionId,
    'chronoscope.source': source,
    'telemetry.sdk.name': 'chronoscope',
  });
}

/**
 * Our spans as the OpenTelemetry SDK's ReadableSpan, so that the project's own serializers (JSON for the file,
 * protobuf for a collector) do the wire encoding. Times are the log's: start = ts, end = ts + dur, in ms.
 */
export function toReadableSpan(s: ExportSpan, traceId: string, rootSessionId: string, resource: Resource, o: AttributeOptions): ReadableSpan {
  const e = s.entry;
  const start = e.ts ?? 0;
  const end = start + e.dur;
  const error = typeof s.attrs.error === 'string' ? s.attrs.error : undefined;
  return {
    name: e.name || e.type,
    kind: SpanKind.INTERNAL,
    spanContext: () => ({ traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED }),
    parentSpanContext: s.parentSpanId ? { traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } : undefined,
    startTime: hr(start),
    endTime: hr(end),
    duration: hr(e.dur),
    status: e.status === 1 ? { code: SpanStatusCode.ERROR, message: error ?? `${e.type} failed` } : { code: SpanStatusCode.UNSET },
    attributes: spanAttributes(s, rootSessionId, o),
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

export function readableSpans(ss: SessionSpans, o: AttributeOptions): ReadableSpan[] {
  const resource = sessionResource(ss.rootSessionId, ss.source);
  return ss.spans.map((s) => toReadableSpan(s, ss.traceId, ss.rootSessionId, resource, o));
}
