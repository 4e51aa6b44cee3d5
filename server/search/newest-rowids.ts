import type Database from 'better-sqlite3';
import { plucked, statement } from '../db/statements';
import { segmentsNewestFirst, type IdSegment } from '../db/id-order';

// A capped read of a text index that is not the events' (prompts, companion files, the paths sessions touched),
// newest first. Its rows are numbered as the lines they came with were, so a backfill numbered them newest session
// first too: read by descending rowid, the cap kept the oldest (server/db/id-order.ts says why and how the lines
// are read). Each such table has a column saying which line id its row stands at, which never decreases with the
// row's id; the rows of each line segment are then a range of rowids, found by binary search of the primary key.

/** A capped read's rows, and whether more matched than it kept. */
export interface Capped<T> {
  rows: T[];
  capped: boolean;
}

/** Where a table's rows stand among the archive's line ids. */
export interface LinePlace {
  /** the table whose `id` (or `id` column) is the text index's rowid */
  table: string;
  /** that column, when not `id` (an integer with a unique index) */
  id?: string;
  /** the SQL of the line id a row stands at (never decreasing with its id) */
  line: string;
}

/**
 * The line segments newest first, stretched to every place a row can stand: past the last line (one placed at a
 * line since gone) and before the first (line 0: a row written before its table had a place).
 */
function stretchedSegments(db: Database.Database): IdSegment[] {
  const segs = segmentsNewestFirst(db);
  const top = segs[0]?.hi ?? 0;
  const out: IdSegment[] = [{ lo: top + 1, hi: Number.MAX_SAFE_INTEGER, newestFirst: false }, ...segs];
  const oldest = out[out.length - 1];
  out[out.length - 1] = { ...oldest, lo: Math.min(oldest.lo, 0) };
  return out;
}

/**
 * Each segment's rows: from the first row standing at or past its lowest line to the row before the first standing
 * past its highest, by binary search (~20 seeks each). A binary search's answer never decreases with its bound,
 * whatever the rows hold, so consecutive segments' ranges cover every row exactly once even if a row stood out of
 * order (it is then read with a neighbouring segment, never twice or never: newest-rowids.test.ts).
 */
function rowRanges(db: Database.Database, place: LinePlace, segs: IdSegment[]): { lo: number; hi: number }[] {
  const id = place.id ?? 'id';
  const last = (plucked(db, `SELECT max(${id}) FROM ${place.table}`).get() as number | null) ?? 0;
  const rowAt = statement(db, `SELECT ${id} AS id, ${place.line} AS line FROM ${place.table} WHERE ${id} >= ? ORDER BY ${id} LIMIT 1`);
  const found = new Map<number, number>();
  /** the first row id whose line is at least `line` (last + 1 when none is) */
  const firstFrom = (line: number): number => {
    if (line <= 0) return 1;
    if (line === Number.MAX_SAFE_INTEGER) return last + 1;
    const known = found.get(line);
    if (known !== undefined) return known;
    let lo = 1;
    let hi = last + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const row = rowAt.get(mid) as { id: number; line: number } | undefined;
      if (row === undefined || row.line >= line) hi = mid;
      else lo = row.id + 1;
    }
    found.set(line, lo);
    return lo;
  };
  return segs.map((seg) => ({ lo: firstFrom(seg.lo), hi: seg.hi >= Number.MAX_SAFE_INTEGER ? last : firstFrom(seg.hi + 1) - 1 }));
}

/**
 * A session scope's pieces (session-scope.ts), stretched as stretchedSegments stretches every line: the rows standing
 * past the last line or at line 0 are read too, as their place says nothing of their session.
 */
function stretchedScope(db: Database.Database, pieces: IdSegment[]): IdSegment[] {
  const top = segmentsNewestFirst(db)[0]?.hi ?? 0;
  return [{ lo: top + 1, hi: Number.MAX_SAFE_INTEGER, newestFirst: false }, ...pieces, { lo: Number.MIN_SAFE_INTEGER, hi: 0, newestFirst: false }];
}

/**
 * A scope's row ranges in one table, kept with the scope (session-scope.ts keeps it until the next commit, which is
 * when a row can be added): two binary searches a piece, up to 64 pieces, once per scope and table, not per read.
 */
const keptRanges = new WeakMap<IdSegment[], Map<string, { lo: number; hi: number }[]>>();
function scopeRowRanges(db: Database.Database, place: LinePlace, within: IdSegment[], segs: IdSegment[]): { lo: number; hi: number }[] {
  let byPlace = keptRanges.get(within);
  if (byPlace === undefined) {
    byPlace = new Map();
    keptRanges.set(within, byPlace);
  }
  const key = `${place.table}\u0000${place.line}`;
  let ranges = byPlace.get(key);
  if (ranges === undefined) {
    ranges = rowRanges(db, place, segs);
    byPlace.set(key, ranges);
  }
  return ranges;
}

/**
 * The ids `head` selects (`SELECT rowid FROM <index> WHERE …`, its parameters in `params`), newest first by
 * the lines their rows stand at, at most `cap`; `capped` when more exist. One statement per segment, in its own
 * direction. `key` is the column of `head`'s table that holds the place's id: `rowid` for a text index (its
 * rowid is the id), the id column itself when `head` reads the place's table (through an index on that column,
 * which the segment's range then seeks). `within`: only the rows standing at those lines (a session scope's pieces,
 * session-scope.ts), and those whose place names no line.
 */
export function newestRowids(
  db: Database.Database,
  head: string,
  params: Record<string, unknown>,
  cap: number,
  place: LinePlace,
  key = 'rowid',
  within: IdSegment[] | null = null,
): { ids: number[]; capped: boolean } {
  const segs = within === null ? stretchedSegments(db) : stretchedScope(db, within);
  const ranges = within === null ? rowRanges(db, place, segs) : scopeRowRanges(db, place, within, segs);
  const ids: number[] = [];
  for (const [i, seg] of segs.entries()) {
    const rows = ranges[i];
    if (rows.hi < rows.lo) continue;
    const sql = `${head} AND ${key} >= CAST(@lo AS INTEGER) AND ${key} <= CAST(@hi AS INTEGER) ORDER BY ${key} ${seg.newestFirst ? 'ASC' : 'DESC'} LIMIT @limit`;
    ids.push(...(plucked(db, sql).all({ ...params, ...rows, limit: cap + 1 - ids.length }) as number[]));
    if (ids.length > cap) break;
  }
  const capped = ids.length > cap;
  if (capped) ids.length = cap;
  return { ids, capped };
}
