import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { exportFixtureFiles, PARENT } from './export-fixture';
import { loadOtlpExport, otlpDocument } from './otlp-export-op';
import { ExportTooLargeError, otlpJsonDocument } from './otlp-json';

// The API's answer for an OTLP export: the document's bytes, or a 404, or a 413 whose message and details say how
// large the export is (or is estimated to be) and the command that writes it in parts.

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
  await loadOtlpExport();
});
afterAll(() => fx.cleanup());

const refusal = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return null;
};

describe('the OTLP export op', () => {
  it('a 413 refused after its first spans gives the size so far, the spans and the whole at their rate', () => {
    const o = { maxBytes: 10_000, sizeBatch: 4 };
    const inProcess = refusal(() => otlpJsonDocument(fx.db, PARENT, o)) as ExportTooLargeError;
    const err = refusal(() => otlpDocument(fx.db, PARENT, o)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(413);
    expect(err.code).toBe('export_too_large');
    expect(err.details).toEqual({ bytes: inProcess.bytes, spans: 19, estimatedBytes: Math.round((inProcess.bytes * 19) / 8) });
    expect(err.message).toBe(`${inProcess.size}: run \`chronoscope export ${PARENT} --split -o FILE\` to write it in parts`);
    expect(err.message).toMatch(/\(its first 8 of 19 spans; about 0\.\d MB in all at that rate\)/);
  });

  it('a 413 whose size is exact, or known from the log entries, has no estimate', () => {
    const exact = refusal(() => otlpDocument(fx.db, PARENT, { maxBytes: 10_000 })) as ApiError;
    expect(exact.details).toEqual({ bytes: (refusal(() => otlpJsonDocument(fx.db, PARENT, { maxBytes: 10_000 })) as ExportTooLargeError).bytes, spans: 19 });
    const entries = refusal(() => otlpDocument(fx.db, PARENT, { maxBytes: 1000 })) as ApiError;
    expect(entries.message).toMatch(/^the export is over 0\.\d MB \(its 19 log entries alone\)/);
    expect(Object.keys(entries.details as object)).toEqual(['bytes', 'spans']);
  });

  it('an unknown session is a 404', () => {
    const err = refusal(() => otlpDocument(fx.db, 'nope')) as ApiError;
    expect([err.status, err.message]).toEqual([404, 'session nope was not found']);
  });
});
