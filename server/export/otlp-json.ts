import type Database from 'better-sqlite3';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { VERSION } from '../version';
import { readableSpans } from './otlp-spans';
import { sessionSpans } from './session-spans';

/** VS Code's importer refuses files over 50 MB (INTEROP §1); so do we, naming the size. */
export const MAX_EXPORT_BYTES = 50 * 1024 * 1024;

export class ExportTooLargeError extends Error {
  /** what is wrong, without what to do: the CLI and the API each say how to split in their own terms */
  readonly size: string;
  constructor(
    readonly bytes: number,
    readonly spans: number,
  ) {
    const size = `the export is ${(bytes / 1024 / 1024).toFixed(1)} MB (${spans.toLocaleString('en-US')} spans), over VS Code's 50 MB import limit`;
    super(`${size}: use --split to write it in parts`);
    this.size = size;
  }
}

export interface OtlpDocument {
  resourceSpans: unknown[];
  copilotChat: { exportedAt: string; exporterVersion: string; sessionId: string; sessionTitle: string | null };
}

export interface OtlpExportOptions {
  /** when the file says it was exported; fixed in tests so two exports are byte-identical */
  exportedAt?: number;
  /** write parts of at most MAX_EXPORT_BYTES instead of refusing */
  split?: boolean;
  maxBytes?: number;
}

/**
 * A session and its child logs as one OTLP JSON document (or several with `split`), encoded by the OpenTelemetry
 * JSON serializer: 32-hex trace id, 16-hex span ids (span-ids.ts), nanosecond times as decimal strings, integer
 * attributes as intValue. The top-level `copilotChat` block is what VS Code's Agent Debug Log import reads first.
 * Exporting twice gives the same bytes (given exportedAt).
 */
export function exportOtlpJson(db: Database.Database, sessionId: string, o: OtlpExportOptions = {}): OtlpDocument[] | null {
  const ss = sessionSpans(db, sessionId);
  if (!ss) return null;
  const title = (db.prepare('SELECT title FROM sessions WHERE id = ?').get(ss.rootSessionId) as { title: string | null } | undefined)?.title ?? null;
  const spans = readableSpans(ss, { content: true, rawEntry: true });
  const max = o.maxBytes ?? MAX_EXPORT_BYTES;
  const head = { exportedAt: new Date(o.exportedAt ?? Date.now()).toISOString(), exporterVersion: `chronoscope ${VERSION}`, sessionId: ss.rootSessionId, sessionTitle: title };
  const encode = (part: typeof spans) => JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(part))) as { resourceSpans: unknown[] };
  const whole = encode(spans);
  const bytes = Buffer.byteLength(JSON.stringify(whole));
  if (bytes <= max) return [{ resourceSpans: whole.resourceSpans, copilotChat: head }];
  if (!o.split) throw new ExportTooLargeError(bytes, spans.length);
  // Parts of consecutive spans in tree order, each under the limit (a span's parent may sit in an earlier part).
  const parts: OtlpDocument[] = [];
  const perPart = Math.max(1, Math.floor((spans.length * max * 0.9) / bytes));
  for (let i = 0; i < spans.length; i += perPart) parts.push({ resourceSpans: encode(spans.slice(i, i + perPart)).resourceSpans, copilotChat: head });
  return parts;
}
