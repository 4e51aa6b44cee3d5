import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain ES modules of the install step, without types
import { MARKER, ORIGINAL, PATCHED, patchFts5Hash } from '../../scripts/fts5-hash-patch.mjs';
// @ts-expect-error: as above
import { DEFINITION, MARKER as TRIM_MARKER, patchMallocTrim, TABLE_ANCHOR, TABLE_ENTRY } from '../../scripts/malloc-trim-patch.mjs';
// @ts-expect-error: as above
import { installed, patchesInstalled, PATCHES, patchSqlite, sqlitePatched } from '../../scripts/sqlite-patches.mjs';

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
    expect(patchesInstalled()).toContain('scripts/fts5-hash-patch.mjs');
    // murmur3's 0x85ebca6b as an immediate operand, little-endian: absent from the stock build
    const bytes = fs.readFileSync(binary);
    expect(bytes.includes(Buffer.from([0x6b, 0xca, 0xeb, 0x85]))).toBe(true);
  });
});

describe('malloc_trim as an SQL function (scripts/malloc-trim-patch.mjs)', () => {
  it("adds the function and its table entry to this better-sqlite3's SQLite once, and leaves a patched source alone", () => {
    const once = patchMallocTrim(amalgamation);
    expect(once.state).toBe('patched');
    expect(once.source.length - amalgamation.length).toBe(DEFINITION.length + TABLE_ENTRY.length);
    expect(once.source.split(TABLE_ANCHOR + TABLE_ENTRY).length).toBe(2);
    // defined before the table that names it
    expect(once.source.indexOf(DEFINITION)).toBeLessThan(once.source.indexOf(TABLE_ENTRY));
    expect(patchMallocTrim(once.source)).toEqual({ state: 'already', source: once.source });
    expect(patchMallocTrim(amalgamation.replace(TABLE_ANCHOR, TABLE_ANCHOR.replace('randomblob', 'random_blob'))).state).toBe('unknown');
    expect(DEFINITION).toContain(TRIM_MARKER);
  });

  it('is in the installed binary: chronoscope_malloc_trim() answers 0 or 1 on glibc', () => {
    expect(patchesInstalled()).toContain('scripts/malloc-trim-patch.mjs');
    const db = new Database(':memory:');
    try {
      expect([0, 1]).toContain(db.prepare('SELECT chronoscope_malloc_trim()').pluck().get());
    } finally {
      db.close();
    }
  });
});

describe('the patches together (scripts/sqlite-patches.mjs)', () => {
  it('apply in turn to one source, each once; the installed binary carries them all', () => {
    const all = patchSqlite(amalgamation);
    expect(all.applied).toEqual(PATCHES.map((p: { file: string }) => p.file));
    expect(all.unknown).toEqual([]);
    expect(all.source).toContain(PATCHED);
    expect(all.source).toContain(TABLE_ENTRY);
    expect(patchSqlite(all.source)).toEqual({ source: all.source, applied: all.applied, unknown: [] });
    // a source one patch does not know: the other still applies, and the unknown one is named
    const other = patchSqlite(amalgamation.replace(ORIGINAL, ORIGINAL.replace('h = 13', 'h = 17')));
    expect([other.applied, other.unknown]).toEqual([['scripts/malloc-trim-patch.mjs'], ['scripts/fts5-hash-patch.mjs']]);
    expect(sqlitePatched()).toBe(true);
  });
});
