import type Database from 'better-sqlite3';

/**
 * The page size of the archive when Chronoscope creates it: 16 KiB, not SQLite's 4 KiB (the search file keeps 4 KiB:
 * search-db.ts says why). A backfill writes a dozen b-trees at once (the events table and its indexes, lines, chunks); with pages four
 * times as large there are a quarter as many page splits and cache lookups per row, and a deflated archive chunk
 * (~8 KB) fits in one page instead of spilling onto an overflow page. The 1.6 GiB bench corpus through the server:
 * 89.3 -> 82.9 s, 135.2 -> 128.5 CPU s, the two files 2,404 -> 2,414 MB, every query row's p95 within noise;
 * re-inserting its 1.5 M first events alone, 4.26 -> 3.71 µs a row. A file that exists keeps the size it was made with
 * (changing it would need a VACUUM of the whole archive).
 */
export const PAGE_BYTES = 16 * 1024;

/** Asks for PAGE_BYTES: it takes effect only on a file with nothing written yet, so call it first. */
export function usePageSize(db: Database.Database): void {
  db.pragma(`page_size = ${PAGE_BYTES}`);
}

/** How many of this database's pages hold `bytes` (settings such as wal_autocheckpoint count pages). */
export function pagesFor(db: Database.Database, bytes: number): number {
  return Math.max(1, Math.round(bytes / (db.pragma('page_size', { simple: true }) as number)));
}
