// `chronoscope export --split`: the parts are written as they are made (server/export/otlp-json.ts otlpJsonParts), one
// file each, and a single part is written as the one file (or stdout) asked for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHILD, exportedDocument, exportFixtureFiles, PARENT, splitDocuments } from '../export/export-fixture';
import { otlpJsonParts } from '../export/otlp-json';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { writeParts } from './export';

let fx: FixtureDb;
let tmp: string;
const AT = Date.UTC(2026, 11, 1);
beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-split-'));
});
afterAll(() => {
  fx.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function captured(run: () => number): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += typeof s === 'string' ? s : Buffer.from(s).toString('utf8')), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    return { code: run(), out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('export --split', () => {
  it('several parts: FILE-1.json … FILE-N.json, each the document the split export makes', () => {
    const expected = splitDocuments(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT });
    expect(expected.length).toBeGreaterThan(2);
    const r = captured(() => writeParts(path.join(tmp, 'many.json'), otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT })!));
    const n = expected.length;
    expect(r).toEqual({ code: 0, out: '', err: `wrote ${n} parts: ${path.join(tmp, 'many-1.json')} … ${path.join(tmp, `many-${n}.json`)}\n` });
    for (let i = 1; i <= n; i++) expect(fs.readFileSync(path.join(tmp, `many-${i}.json`), 'utf8')).toBe(JSON.stringify(expected[i - 1]));
    expect(fs.existsSync(path.join(tmp, `many-${n + 1}.json`))).toBe(false);
    expect(fs.existsSync(path.join(tmp, 'many.json'))).toBe(false);
  });

  it('one part: the file named, or stdout', () => {
    const whole = JSON.stringify(exportedDocument(fx.db, CHILD, { exportedAt: AT })!);
    const file = path.join(tmp, 'one.json');
    expect(captured(() => writeParts(file, otlpJsonParts(fx.db, CHILD, { exportedAt: AT })!))).toEqual({ code: 0, out: '', err: `wrote ${file}\n` });
    expect(fs.readFileSync(file, 'utf8')).toBe(whole);
    expect(captured(() => writeParts(undefined, otlpJsonParts(fx.db, CHILD, { exportedAt: AT })!))).toEqual({ code: 0, out: `${whole}\n`, err: '' });
  });

  it('the first part is on disk, not held, while the second is made; a file from an earlier export keeps its name and bytes', () => {
    const expected = splitDocuments(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT });
    const file = path.join(tmp, 'held.json');
    fs.writeFileSync(file, 'an earlier export');
    const seenAtSecond: (string | null)[] = [];
    function* watched(): Generator<Uint8Array[]> {
      let i = 0;
      for (const part of otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT })!) {
        if (++i === 2) seenAtSecond.push(fs.existsSync(`${file}.partial`) ? fs.readFileSync(`${file}.partial`, 'utf8') : null);
        yield part;
      }
    }
    expect(captured(() => writeParts(file, watched())).code).toBe(0);
    expect(seenAtSecond).toEqual([JSON.stringify(expected[0])]);
    expect(fs.readFileSync(path.join(tmp, 'held-1.json'), 'utf8')).toBe(JSON.stringify(expected[0]));
    expect(fs.readFileSync(file, 'utf8')).toBe('an earlier export');
    expect(fs.existsSync(`${file}.partial`)).toBe(false);
  });

  it('a failure before the second part leaves neither the file nor the part on disk', () => {
    const file = path.join(tmp, 'failed.json');
    function* failing(): Generator<Uint8Array[]> {
      yield* [...otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT })!].slice(0, 1);
      throw new Error('disk gone');
    }
    expect(() => captured(() => writeParts(file, failing()))).toThrow('disk gone');
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('failed'))).toEqual([]);
  });

  it('several parts and no -o: exit 2 and nothing on stdout', () => {
    const r = captured(() => writeParts(undefined, otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, exportedAt: AT })!));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^chronoscope export: the export is over VS Code's 50 MB import limit and comes in parts: name a file with -o/);
  });
});
