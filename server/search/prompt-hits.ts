import type Database from 'better-sqlite3';
import { planScan, type Plan, type TextTables } from './event-hits';
import type { ParsedQuery } from './query-parser';
import { plucked, statement } from '../db/statements';
import { segmentsNewestFirst, type IdSegment } from '../db/id-order';

/**
 * Matches in text that is not an event's own: the prompts a session's model calls were sent (prompt_docs, each
 * distinct message once per session) and its companion files (system prompts, tool lists). Both are read newest
 * first up to a cap, in the order of the lines they came with, and rolled up per session here.
 */

export const PROMPT_TABLES: TextTables = { trigram: 'prompt_text', cjk: 'prompt_cjk' };
export const COMPANION_TABLES: TextTables = { trigram: 'companion_text', cjk: 'companion_cjk' };

/** Rows read per query from each of these indexes on the first page (a common word is in every prompt). */
export const PROMPT_CAP = 2000;

const NO_TS = Number.MAX_SAFE_INTEGER;

/** The matching prompt texts of one session: how many, and the earliest model call that sent one of them. */
export interface PromptHit {
  sessionNum: number;
  n: number;
  firstTs: number | null;
  firstId: number;
}

export interface CompanionHit {
  id: number;
  sessionId: string;
  kind: 'system_prompt' | 'tools';
  name: string;
}

export interface Capped<T> {
  rows: T[];
  capped: boolean;
}

/**
 * Where a side table's rows stand among the archive's line ids: a column that never decreases with the row's id,
 * because the rows are numbered as the lines they came with were. prompt_docs is numbered in the order of the
 * events that first sent each text (the search thread walks them in id order, session-prompts.ts; an event's id is
 * its line's); a companion file keeps the last line id the archive held when it was stored (NULL, read as 0, in an
 * archive written before that column: its rows then sort before every line).
 */
interface LinePlace {
  /** the rowid of the table's text index */
  table: string;
  /** the line id the row stands at */
  line: string;
}
const PROMPT_PLACE: LinePlace = { table: 'search.prompt_docs', line: 'event_id' };
const placedCompanions = new WeakMap<Database.Database, LinePlace>();
/** The companions' place; an archive written before at_line and opened read-only (`--no-index`) has none to read. */
function companionPlace(db: Database.Database): LinePlace {
  let place = placedCompanions.get(db);
  if (!place) {
    const has = db.prepare("SELECT 1 FROM pragma_table_info('companions') WHERE name = 'at_line'").get() !== undefined;
    place = { table: 'main.companions', line: has ? 'coalesce(at_line, 0)' : '0' };
    placedCompanions.set(db, place);
  }
  return place;
}

/** The ids of a side table's rows that stand among line ids lo..hi: each bound a binary search of its primary key (~20 seeks). */
function rowRange(db: Database.Database, place: LinePlace, seg: IdSegment, last: number): { lo: number; hi: number } {
  const rowAt = statement(db, `SELECT id, ${place.line} AS line FROM ${place.table} WHERE id >= ? ORDER BY id LIMIT 1`);
  /** the first row id whose line is at least `line` (any id past the last row when none is) */
  const firstFrom = (line: number): number => {
    let lo = 1;
    let hi = last + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const row = rowAt.get(mid) as { id: number; line: number } | undefined;
      if (row === undefined || row.line >= line) hi = mid;
      else lo = row.id + 1;
    }
    return lo;
  };
  return { lo: firstFrom(seg.lo), hi: firstFrom(seg.hi + 1) - 1 };
}

/**
 * The line segments newest first, stretched to every place a side row can stand: past the last line (a companion
 * placed at a line since deleted) and before the first (line 0: an archive's companions from before at_line).
 */
function sideSegments(db: Database.Database): IdSegment[] {
  const segs = segmentsNewestFirst(db);
  const top = segs[0]?.hi ?? 0;
  const out: IdSegment[] = [{ lo: top + 1, hi: Number.MAX_SAFE_INTEGER, newestFirst: false }, ...segs];
  const oldest = out[out.length - 1];
  out[out.length - 1] = { ...oldest, lo: Math.min(oldest.lo, 0) };
  return out;
}

/**
 * The rowids of a plan's matches, newest first, at most `cap` (+1 to know that more exist). Capped (the first
 * page), rows are read segment by segment in the order of the lines they stand among (server/db/id-order.ts: a
 * backfill numbered the newest sessions first); uncapped, in one call.
 */
function matchingIds(db: Database.Database, plan: Plan, cap: number, place: LinePlace): { ids: number[]; capped: boolean } {
  const also = plan.alsoRequired ? ` AND rowid IN (SELECT rowid FROM ${plan.alsoRequired.table} WHERE ${plan.alsoRequired.table} MATCH @required)` : '';
  const not = plan.excluded ? ` AND rowid NOT IN (SELECT rowid FROM ${plan.excluded.table} WHERE ${plan.excluded.table} MATCH @excluded)` : '';
  const params: Record<string, unknown> = { match: plan.match };
  if (plan.alsoRequired) params.required = plan.alsoRequired.match;
  if (plan.excluded) params.excluded = plan.excluded.match;
  const head = `SELECT rowid FROM ${plan.driver} WHERE ${plan.driver} MATCH @match${also}${not}`;
  if (!Number.isFinite(cap)) {
    return { ids: plucked(db, `${head} ORDER BY rowid DESC`).all(params) as number[], capped: false };
  }
  const last = (plucked(db, `SELECT max(id) FROM ${place.table}`).get() as number | null) ?? 0;
  const ids: number[] = [];
  for (const seg of sideSegments(db)) {
    const rows = rowRange(db, place, seg, last);
    if (rows.hi < rows.lo) continue;
    const sql = `${head} AND rowid >= CAST(@lo AS INTEGER) AND rowid <= CAST(@hi AS INTEGER) ORDER BY rowid ${seg.newestFirst ? 'ASC' : 'DESC'} LIMIT @limit`;
    ids.push(...(plucked(db, sql).all({ ...params, ...rows, limit: cap + 1 - ids.length }) as number[]));
    if (ids.length > cap) break;
  }
  const capped = ids.length > cap;
  if (capped) ids.length = cap;
  return { ids, capped };
}

// CROSS JOIN pins the order: the matched ids drive, prompt_docs (the search file's) and events are probed by primary
// key. The session is the event's: prompt_docs keys it by id (session-prompts.ts), which a rebuild's numbering keeps.
const PROMPT_GROUPS = `SELECT e.session_num AS sessionNum, count(*) AS n, min(coalesce(e.ts, ${NO_TS})) AS firstTs, e.id AS firstId
FROM json_each(@ids) j CROSS JOIN search.prompt_docs d ON d.id = j.value CROSS JOIN events e ON e.id = d.event_id
WHERE @since IS NULL OR e.ts >= @since
GROUP BY e.session_num`;

/** Sessions whose model calls were sent a prompt text matching the query (in the time window, by the call's time). */
export function promptHits(db: Database.Database, q: ParsedQuery, since: number | null, cap = PROMPT_CAP): Capped<PromptHit> {
  // Long terms whole (no pieces): a prompt row cannot be verified against its text afterwards, as events are.
  const plan = planScan(q, PROMPT_TABLES, true);
  if (plan === null) return { rows: [], capped: false };
  const { ids, capped } = matchingIds(db, plan, cap, PROMPT_PLACE);
  if (ids.length === 0) return { rows: [], capped };
  const rows = statement(db, PROMPT_GROUPS).all({ ids: JSON.stringify(ids), since }) as PromptHit[];
  for (const r of rows) if (r.firstTs === NO_TS) r.firstTs = null;
  return { rows, capped };
}

const COMPANION_ROWS = `SELECT c.id, c.session_id AS sessionId, c.kind, c.name
FROM json_each(@ids) j CROSS JOIN companions c ON c.id = j.value ORDER BY c.session_id, c.kind, c.n`;

/** Companion files (system prompts, tool lists) whose text matches the query. */
export function companionHits(db: Database.Database, q: ParsedQuery, cap = PROMPT_CAP): Capped<CompanionHit> {
  const plan = planScan(q, COMPANION_TABLES, true);
  if (plan === null) return { rows: [], capped: false };
  const { ids, capped } = matchingIds(db, plan, cap, companionPlace(db));
  if (ids.length === 0) return { rows: [], capped };
  return { rows: statement(db, COMPANION_ROWS).all({ ids: JSON.stringify(ids) }) as CompanionHit[], capped };
}
