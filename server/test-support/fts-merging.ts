import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { indexOnce } from '../ingest/index-once';

// For the tests of FTS5 merging (fts-compaction.ts and its callers): how many segments a table holds, and an
// archive whose tables hold several, as days of use leave them.

/** Segments of an FTS5 table: its %_idx holds a row per leaf-page range of each segment. */
export function ftsSegments(db: Database.Database, table: string): number {
  return db.prepare(`SELECT count(DISTINCT segid) FROM ${table}_idx`).pluck().get() as number;
}

/**
 * The corpus's sessions arriving in `runs` runs, as days of use do: each run copies the next share of its session
 * folders into `grownDir` and indexes that into `db`, so that each run's commits leave segments of their own.
 * Returns how many session folders the corpus has.
 */
export async function indexInRuns(db: Database.Database, corpusDir: string, grownDir: string, runs = 3): Promise<number> {
  const sessionDirs = (fs.readdirSync(corpusDir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isDirectory() && d.name !== 'debug-logs' && path.basename(d.parentPath) === 'debug-logs')
    .map((d) => path.relative(corpusDir, path.join(d.parentPath, d.name)))
    .sort();
  for (let run = 0; run < runs; run++) {
    for (const d of sessionDirs.filter((_, i) => i % runs === run)) fs.cpSync(path.join(corpusDir, d), path.join(grownDir, d), { recursive: true });
    await indexOnce(db, [grownDir]);
  }
  return sessionDirs.length;
}
