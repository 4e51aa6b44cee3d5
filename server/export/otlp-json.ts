import type Database from 'better-sqlite3';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { familyCte } from '../counts/session-events';
import { VERSION } from '../version';
import { readableSpans } from './otlp-spans';
import { sessionSpans } from './session-spans';

/** VS Code's importer refuses files over 50 MB (INTEROP §1); so do we, naming the size. */
export const MAX_EXPORT_BYTES = 50 * 1024 * 1024;

export class ExportTooLargeError extends Error {
  /** what is wrong, without what to do: the CLI and the API each say how to split in their own terms */
  readonly size: string;
  /** `atLeast`: `bytes` is the archived log lines alone (the export holds each, and more), `spans` their entries */
  constructor(
    readonly bytes: number,
    readonly spans: number,
    atLeast = false,
  ) {
    const mb = (bytes / 1024 / 1024).toFixed(1);
    const count = spans.toLocaleString('en-US');
    const size = atLeast
      ? `the export is over ${mb} MB (its ${count} log entries alone), over VS Code's 50 MB import limit`
      : `the export is ${mb} MB (${count} spans), over VS Code's 50 MB import limit`;
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
  /** spans encoded at a time to measure the export (tests set a small one) */
  sizeBatch?: number;
}

/**
 * Spans encoded at a time to measure an export: the largest family of the bench archive (254k spans with their
 * prompts) encoded as one string passed V8's longest string ("RangeError: Invalid string length", a 500 after 8.6 s);
 * a batch of these is tens of MB at most.
 */
const SIZE_BATCH = 5000;

/**
 * A session and its child logs as one OTLP JSON document (or several with `split`), encoded by the OpenTelemetry
 * JSON serializer: 32-hex trace id, 16-hex span ids (span-ids.ts), nanosecond times as decimal strings, integer
 * attributes as intValue. The top-level `copilotChat` block is what VS Code's Agent Debug Log import reads first.
 * Exporting twice gives the same bytes (given exportedAt).
 */
export function exportOtlpJson(db: Database.Database, sessionId: string, o: OtlpExportOptions = {}): OtlpDocument[] | null {
  const max = o.maxBytes ?? MAX_EXPORT_BYTES;
  if (!o.split) {
    // Each span carries its archived line (chronoscope.entry): when the lines alone are over the limit, say so before
    // reading any (the bench archive's largest family: 10 s and 1.35 GB of RSS to refuse it by its encoded size).
    const logs = archivedLogBytes(db, sessionId);
    if (logs !== null && logs.bytes > max) throw new ExportTooLargeError(logs.bytes, logs.entries, true);
  }
  const ss = sessionSpans(db, sessionId);
  if (!ss) return null;
  const title = (db.prepare('SELECT title FROM sessions WHERE id = ?').get(ss.rootSessionId) as { title: string | null } | undefined)?.title ?? null;
  const spans = readableSpans(ss, { content: true, rawEntry: true });
  const head = { exportedAt: new Date(o.exportedAt ?? Date.now()).toISOString(), exporterVersion: `chronoscope ${VERSION}`, sessionId: ss.rootSessionId, sessionTitle: title };
  const decode = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as { resourceSpans: unknown[] };
  const encode = (part: typeof spans) => decode(JsonTraceSerializer.serializeRequest(part)!);
  // The size, batch by batch: each batch's resource and scope are counted again, a few hundred bytes a batch over.
  const batch = o.sizeBatch ?? SIZE_BATCH;
  /** the whole export when one batch held it (encoded once, not again below) */
  let whole: Uint8Array | null = null;
  let bytes = 0;
  for (let i = 0; i < spans.length; i += batch) {
    const e = JsonTraceSerializer.serializeRequest(spans.slice(i, i + batch))!;
    bytes += e.byteLength;
    if (spans.length <= batch) whole = e;
  }
  if (bytes <= max) return [{ resourceSpans: (whole !== null ? decode(whole) : encode(spans)).resourceSpans, copilotChat: head }];
  if (!o.split) throw new ExportTooLargeError(bytes, spans.length);
  // Parts of consecutive spans in tree order, each under the limit (a span's parent may sit in an earlier part).
  const parts: OtlpDocument[] = [];
  const perPart = Math.max(1, Math.floor((spans.length * max * 0.9) / bytes));
  for (let i = 0; i < spans.length; i += perPart) parts.push({ resourceSpans: encode(spans.slice(i, i + perPart)).resourceSpans, copilotChat: head });
  return parts;
}

/**
 * What the exported entries of a session and its child logs hold at least: the bytes read of their log files, less
 * their bad lines and fragments (not exported) and two bytes a line for its line break; each entry is written whole
 * as a JSON string (chronoscope.entry), quotes and escapes on top. Null for an unknown session.
 */
function archivedLogBytes(db: Database.Database, sessionId: string): { bytes: number; entries: number } | null {
  const row = db
    .prepare(
      `WITH RECURSIVE ${familyCte(' WHERE id = ?')}
       SELECT count(DISTINCT family.id) sessions, coalesce(sum(f.events), 0) entries,
         coalesce(sum(f.offset - 2 * (f.events + f.bad_lines + f.fragments)
           - (SELECT coalesce(sum(l.length), 0) FROM lines l WHERE l.file_id = f.id AND l.kind > 0)), 0) bytes
       FROM family LEFT JOIN files f ON f.session_id = family.id`,
    )
    .get(sessionId) as { sessions: number; bytes: number; entries: number };
  return row.sessions === 0 ? null : { bytes: row.bytes, entries: row.entries };
}
