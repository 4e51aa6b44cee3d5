import type Database from 'better-sqlite3';
import { plucked } from '../db/statements';

/**
 * Gives the system back the free memory of the process's malloc arenas (glibc's malloc_trim(0)), through the SQL
 * function scripts/malloc-trim-patch.mjs adds to our SQLite build. Any thread may call it, on any of its connections:
 * it trims every arena of the process.
 *
 * Why: the server runs with one arena (launch-flags.ts, MALLOC_ARENA_MAX=1), and what its threads free there (SQLite's
 * pages, zlib's streams, V8's array buffers and external strings: a backfill's batches, a span tree's load) stays
 * with the process; glibc returns only what is free at the arena's top. Measured after a 0.25x backfill, idle:
 * 169.5 → 129.7 MB of RSS. It costs a walk of the arena's free lists with the arena locked (other threads' mallocs
 * wait), so it runs where a burst of freeing has just ended: a backfill settling, a large span tree built, the
 * search file merged. Returns malloc_trim's answer (1: memory returned), or null when the build has no such function
 * (the install could not patch SQLite: the server runs, keeping that memory).
 */
export function trimMalloc(db: Database.Database): number | null {
  if (missing) return null;
  try {
    return plucked(db, 'SELECT chronoscope_malloc_trim()').get() as number;
  } catch (err) {
    if (err instanceof Error && /no such function/.test(err.message)) {
      missing = true;
      return null;
    }
    throw err;
  }
}

let missing = false;
