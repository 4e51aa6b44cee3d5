// The patches npm's postinstall (scripts/patch-sqlite.mjs) applies to better-sqlite3's SQLite amalgamation before it
// rebuilds the module, and whether the installed binary carries them. Imported by that script, the bench (it says
// which SQLite it measured) and a test; no side effects.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { patchFts5Hash } from './fts5-hash-patch.mjs';
import { patchMallocTrim } from './malloc-trim-patch.mjs';

/**
 * Each patch: its file (what the stamp records), what it is for (the bench's machine line and the install's warning
 * when it cannot apply), the function that applies it to the amalgamation's text ('patched', 'already' or 'unknown':
 * another SQLite version, left as it is), and the SQL a build carrying it must run before it replaces the stock one.
 */
export const PATCHES = [
  {
    file: 'scripts/fts5-hash-patch.mjs',
    what: "FTS5's term hash",
    without: 'search indexing runs on the stock hash (correct, ~17% more CPU for the trigram index)',
    apply: patchFts5Hash,
    probe: "CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'trigram')",
  },
  {
    file: 'scripts/malloc-trim-patch.mjs',
    what: 'malloc_trim',
    without: 'memory freed after a backfill stays in the malloc arena (~40–60 MB more RSS)',
    apply: patchMallocTrim,
    probe: 'SELECT chronoscope_malloc_trim()',
  },
];

/** The amalgamation with every patch that recognises it applied; `applied` and `unknown` list the patches' files. */
export function patchSqlite(source) {
  const applied = [];
  const unknown = [];
  for (const p of PATCHES) {
    const r = p.apply(source);
    if (r.state === 'unknown') unknown.push(p.file);
    else {
      applied.push(p.file);
      source = r.source;
    }
  }
  return { source, applied, unknown };
}

/** Where better-sqlite3 is installed, its binary, and the stamp scripts/patch-sqlite.mjs leaves beside the binary it built. */
export function installed() {
  const moduleDir = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  const release = path.join(moduleDir, 'build', 'Release');
  return { moduleDir, binary: path.join(release, 'better_sqlite3.node'), stamp: path.join(release, 'chronoscope-sqlite-patches.json') };
}

const sha1 = (file) => crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex');

/** The stamp's text for a binary just built with `applied` (npm reinstalling or rebuilding the module changes the binary). */
export function stampFor(binary, applied) {
  return `${JSON.stringify({ binary: sha1(binary), patches: applied })}\n`;
}

/** The patches' files the binary in place was built with by scripts/patch-sqlite.mjs (none: the stock build). */
export function patchesInstalled() {
  const { binary, stamp } = installed();
  try {
    const s = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    return s.binary === sha1(binary) && Array.isArray(s.patches) ? s.patches : [];
  } catch {
    return [];
  }
}

/** Whether the binary in place carries every patch (else the install step builds it again). */
export function sqlitePatched() {
  const have = patchesInstalled();
  return PATCHES.every((p) => have.includes(p.file));
}
