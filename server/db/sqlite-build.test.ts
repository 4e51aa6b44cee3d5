import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the install step, without types
import { fts5HashPatched, installed, MARKER, ORIGINAL, PATCHED, patchFts5Hash } from '../../scripts/fts5-hash-patch.mjs';

const { moduleDir, binary } = installed();
const amalgamation = fs.readFileSync(path.join(moduleDir, 'deps', 'sqlite3', 'sqlite3.c'), 'utf8');

describe("SQLite's FTS5 term hash (scripts/fts5-hash-patch.mjs, applied by npm's postinstall)", () => {
  it("replaces both hash functions of this better-sqlite3's SQLite once, and leaves a patched source alone", () => {
    const once = patchFts5Hash(amalgamation);
    expect(once.state).toBe('patched');
    expect(once.source.split(PATCHED).length).toBe(2);
    expect(once.source.includes(ORIGINAL)).toBe(false);
    expect(once.source.length - amalgamation.length).toBe(PATCHED.length - ORIGINAL.length);
    expect(patchFts5Hash(once.source)).toEqual({ state: 'already', source: once.source });
    expect(patchFts5Hash(amalgamation.replace(ORIGINAL, ORIGINAL.replace('h = 13', 'h = 17'))).state).toBe('unknown');
    expect(PATCHED).toContain(MARKER);
  });

  it('is what the installed binary runs (its stamp, and the finalizer constant in its code)', () => {
    // `npm ci` runs scripts/patch-sqlite.mjs; without its stamp the server runs the stock hash (see that script's warning)
    expect(fts5HashPatched()).toBe(true);
    // murmur3's 0x85ebca6b as an immediate operand, little-endian: absent from the stock build
    const bytes = fs.readFileSync(binary);
    expect(bytes.includes(Buffer.from([0x6b, 0xca, 0xeb, 0x85]))).toBe(true);
  });
});
