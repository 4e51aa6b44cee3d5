import type Database from 'better-sqlite3';
import { isCorruption } from '../db/damaged-index';
import { compactionDue, FtsCompaction } from '../db/fts-compaction';
import { lastLineId } from '../db/raw-lines';
import { getMeta, setMeta } from '../db/schema';

/**
 * The archive's FTS5 tables, which the ingest writes (the search file's are merged by its own thread: search-writer.ts
 * `compact`). session_text answers every search's title match: on the bench archive, left in 9 segments by the
 * backfill, it took 2.6 ms a query, 0.3 once merged (fts-compaction.ts).
 */
export const ARCHIVE_FTS_TABLES = ['session_text', 'file_text', 'companion_text', 'companion_cjk', 'search_index'] as const;

/** meta key: the last line id the archive's FTS5 tables were merged through */
const MERGED_THROUGH = 'fts_merged_through';

/**
 * After a backfill settles, on the ingest thread: the archive's FTS5 tables merged into one segment each when the
 * archive grew enough since their last merge (compactionDue), a step at a time between the indexer's groups.
 * A failed step loses nothing and the merge is tried again at the next start (`fts_merged_through` unchanged); a
 * damaged page is the archive's damage, reported as the indexer's own writes report it.
 */
export function compactArchiveText(
  db: Database.Database,
  o: { damaged: (cause: string) => void; onDone?: () => void; minGrowth?: number },
): FtsCompaction | null {
  const through = lastLineId(db);
  if (!compactionDue(through, Number(getMeta(db, MERGED_THROUGH) ?? '0'), o.minGrowth)) return null;
  const compaction = new FtsCompaction(db, ARCHIVE_FTS_TABLES, {
    canStep: () => !db.inTransaction,
    onDone: () => {
      setMeta(db, MERGED_THROUGH, String(through));
      o.onDone?.();
    },
    onError: (err) => {
      if (isCorruption(err)) o.damaged(err instanceof Error ? err.message : String(err));
    },
  });
  compaction.start();
  return compaction;
}
