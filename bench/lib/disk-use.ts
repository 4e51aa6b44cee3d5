import fs from 'node:fs';
import { peakSampler } from './peak-sampler';
import { searchDbPath } from '../../server/search-index/search-db';

/** Bytes on disk of an index: the archive and its search file, each with its write-ahead log (absent files count 0). */
export function indexBytesOnDisk(dbPath: string): number {
  let n = 0;
  for (const file of [dbPath, searchDbPath(dbPath)])
    for (const ext of ['', '-wal']) {
      try {
        n += fs.statSync(file + ext).size;
      } catch {
        /* not there (yet) */
      }
    }
  return n;
}

/**
 * Samples `indexBytesOnDisk` every `everyMs` until stopped; returns the largest. What a backfill needs on the
 * volume at its worst: the write-ahead logs grow between checkpoints (the archive's reached ~1 GB under the bench's
 * query load before LogRestart, server/db/write-ahead-log.ts), then shrink once restarted.
 */
export function diskPeakSampler(dbPath: string, everyMs = 250): { stop(): number } {
  return peakSampler(() => indexBytesOnDisk(dbPath), everyMs);
}
