import type Database from 'better-sqlite3';
import { lastLineId } from './raw-lines';
import { schemaHas } from './schema';
import { statement } from './statements';

// Which line ids are the newest: what a budgeted read (the search's first page) must read first. Live, ids follow
// time: a later id is a later line. A backfill gives ids to whole sessions newest first (server/ingest/
// backfill-order.ts), so within a backfill a LOWER id is a NEWER session: read by descending id, the first page of
// a search right after installing showed the oldest sessions of the corpus, and a 30-day window found none of
// its matches in the 12,000 it read (all of them older). Each backfill's ids are one row of backfill_runs
// (server/db/schema.ts); every id outside them is in write order.

/** Consecutive ids read in one direction: ascending when `newestFirst` (a backfill's), else descending. */
export interface IdSegment {
  lo: number;
  hi: number;
  newestFirst: boolean;
}

/**
 * Records that ids lo..hi were given by one backfill (a commit group of it; later groups of the same backfill
 * pass the same lo and a higher hi). Runs inside the writer's transaction, so it is rolled back with the lines.
 */
export function recordBackfillRun(db: Database.Database, lo: number, hi: number): void {
  if (hi < lo) return;
  statement(db, 'INSERT INTO main.backfill_runs (lo, hi) VALUES (?, ?) ON CONFLICT (lo) DO UPDATE SET hi = max(hi, excluded.hi)').run(lo, hi);
}

/**
 * A backfill run smaller than this share of the archive's ids is read as if its ids followed time: such a run is
 * what a restart caught up (the lines written while the server was down), the newest of the archive as a whole,
 * misordered only among themselves; and every segment costs each read of a search an FTS5 call of its own (~0.3 ms
 * for a common word), which a server restarted every day for a year would otherwise pay for hundreds of them.
 */
const MIN_RUN_SHARE = 0.01;

const runsTable = new WeakSet<Database.Database>();

/** An archive written before backfill_runs, opened read-only (`--no-index`): all its ids follow time as far as known. */
function hasRuns(db: Database.Database): boolean {
  if (runsTable.has(db)) return true;
  if (!schemaHas(db, 'backfill_runs')) return false;
  runsTable.add(db);
  return true;
}

/**
 * Every line id the archive has given, in segments, newest first: the later of two segments holds the older
 * lines (a backfill after a restart reads what was written while the server was down, newer than all before it).
 * Up to the last id now, so that a later page that reads the same segments reads the same lines.
 */
export function segmentsNewestFirst(db: Database.Database): IdSegment[] {
  const runs = hasRuns(db) ? (statement(db, 'SELECT lo, hi FROM main.backfill_runs ORDER BY lo DESC').all() as { lo: number; hi: number }[]) : [];
  const out: IdSegment[] = [];
  let top = lastLineId(db);
  const smallest = top * MIN_RUN_SHARE;
  for (const r of runs) {
    // a small run leaves `top` where it was: its ids join the gap around it, one segment read downwards
    if (r.hi - r.lo + 1 < smallest) continue;
    // past the last id (its lines deleted since) or overlapping a newer run (never written so): cut to what is left
    const hi = Math.min(r.hi, top);
    if (hi < r.lo) continue;
    if (hi < top) out.push({ lo: hi + 1, hi: top, newestFirst: false });
    out.push({ lo: r.lo, hi, newestFirst: true });
    top = r.lo - 1;
  }
  if (top >= 1) out.push({ lo: 1, hi: top, newestFirst: false });
  return out;
}
