import type Database from 'better-sqlite3';
import { ApiError, notFound } from '../http/errors';
import { EncodedJson } from '../http/json-bytes';
import type { OtlpExportOptions } from './otlp-json';

// The OTLP export as a read op (read-pool/read-ops.ts): run in the read worker, since encoding up to 50 MB of spans
// held the event loop for seconds (/api/health waited 1.8 s on a 413 of the bench archive's second family). Its module
// brings the OpenTelemetry packages (~0.1 s, a few MB), which the worker loads on the first export, not at its start.

let otlp: typeof import('./otlp-json') | null = null;

/** Loads the export's module in this thread; `otlpDocument` needs it. */
export async function loadOtlpExport(): Promise<void> {
  otlp ??= await import('./otlp-json');
}

/**
 * The session's OTLP JSON document as its bytes, or the API's 404 or 413 (over VS Code's 50 MB, with how to split it;
 * its details: the size, the spans and, when it was refused after its first spans, the whole's estimated size).
 * `o` only in tests (a small limit).
 */
export function otlpDocument(db: Database.Database, sessionId: string, o?: OtlpExportOptions): EncodedJson {
  if (!otlp) throw new Error('the OTLP export is not loaded in this thread (loadOtlpExport)');
  try {
    const doc = otlp.otlpJsonDocument(db, sessionId, o);
    if (doc === null) throw notFound(`session ${sessionId}`);
    return new EncodedJson(doc);
  } catch (err) {
    if (err instanceof otlp.ExportTooLargeError) {
      throw new ApiError(413, 'export_too_large', `${err.size}: run \`chronoscope export ${sessionId} --split -o FILE\` to write it in parts`, { bytes: err.bytes, spans: err.spans, ...(err.estimatedBytes !== null ? { estimatedBytes: err.estimatedBytes } : {}) });
    }
    throw err;
  }
}
