import { Hono } from 'hono';
import type { ImportResponse } from '../../shared/api';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { ApiError } from '../http/errors';
import { importOtlp } from '../import/import-otlp';
import { OtlpReadError } from '../import/read-otlp';

/** The largest OTLP file accepted, as VS Code's own import (INTEROP §1). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/**
 * POST /api/import: an OTLP JSON file dropped on the Sessions page. It is written into the imports tree, which
 * the ingest worker watches, so the sessions appear (and are searchable) within a moment, marked imported.
 */
export function importRoutes(ctx: AppContext) {
  return new Hono().post('/import', async (c) => {
    if (!ctx.importsDir) throw new ApiError(409, 'import_off', 'this server was started without an imports folder: use `chronoscope import FILE`');
    const text = await c.req.text();
    if (text.trim() === '') throw new ApiError(400, 'bad_request', 'the request body is empty: send the OTLP JSON file');
    try {
      const r = inOneSnapshot(ctx.db, (db) => importOtlp(text, ctx.importsDir!, db));
      const body: ImportResponse = { imported: r.written.map((w) => ({ sessionId: w.sessionId, events: w.lines })), skipped: r.skipped, spans: r.spans };
      return c.json(body, 200);
    } catch (err) {
      if (err instanceof OtlpReadError) throw new ApiError(400, 'not_otlp', err.message);
      throw err;
    }
  });
}
