import type Database from 'better-sqlite3';
import { planScan, type Plan, type TextTables } from './event-hits';
import type { ParsedQuery } from './query-parser';
import { plucked, statement } from '../db/statements';
import { newestRowids, type Capped, type LinePlace } from './newest-rowids';
import { schemaHasColumn } from '../db/schema';
import type { IdSegment } from '../db/id-order';

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

/**
 * Where the rows stand among the line ids (newest-rowids.ts): prompt_docs is numbered in the order of the events
 * that first sent each text (the search thread walks them in id order, session-prompts.ts; an event's id is its
 * line's); a companion file keeps the last line id the archive held when it was stored (NULL, read as 0, in an
 * archive written before that column: its rows then sort before every line).
 */
const PROMPT_PLACE: LinePlace = { table: 'search.prompt_docs', line: 'event_id' };
const placedCompanions = new WeakMap<Database.Database, LinePlace>();
/** The companions' place; an archive written before at_line and opened read-only (`--no-index`) has none to read. */
function companionPlace(db: Database.Database): LinePlace {
  let place = placedCompanions.get(db);
  if (!place) {
    place = { table: 'main.companions', line: schemaHasColumn(db, 'companions', 'at_line') ? 'coalesce(at_line, 0)' : '0' };
    placedCompanions.set(db, place);
  }
  return place;
}

/**
 * The rowids of a plan's matches, newest first, at most `cap` (+1 to know that more exist): capped (the first
 * page), in the order of the lines the rows stand at (newest-rowids.ts); uncapped, in one call.
 */
function matchingIds(db: Database.Database, plan: Plan, cap: number, place: LinePlace, within: IdSegment[] | null = null): { ids: number[]; capped: boolean } {
  const also = plan.alsoRequired ? ` AND rowid IN (SELECT rowid FROM ${plan.alsoRequired.table} WHERE ${plan.alsoRequired.table} MATCH @required)` : '';
  const not = plan.excluded ? ` AND rowid NOT IN (SELECT rowid FROM ${plan.excluded.table} WHERE ${plan.excluded.table} MATCH @excluded)` : '';
  const params: Record<string, unknown> = { match: plan.match };
  if (plan.alsoRequired) params.required = plan.alsoRequired.match;
  if (plan.excluded) params.excluded = plan.excluded.match;
  const head = `SELECT rowid FROM ${plan.driver} WHERE ${plan.driver} MATCH @match${also}${not}`;
  if (!Number.isFinite(cap)) return { ids: plucked(db, `${head} ORDER BY rowid DESC`).all(params) as number[], capped: false };
  return newestRowids(db, head, params, cap, place, 'rowid', within);
}

// CROSS JOIN pins the order: the matched ids drive, prompt_docs (the search file's) and events are probed by primary
// key. The session is the event's: prompt_docs keys it by id (session-prompts.ts), which a rebuild's numbering keeps.
const PROMPT_GROUPS = `SELECT e.session_num AS sessionNum, count(*) AS n, min(coalesce(e.ts, ${NO_TS})) AS firstTs, e.id AS firstId
FROM json_each(@ids) j CROSS JOIN search.prompt_docs d ON d.id = j.value CROSS JOIN events e ON e.id = d.event_id
WHERE @since IS NULL OR e.ts >= @since
GROUP BY e.session_num`;

/**
 * Sessions whose model calls were sent a prompt text matching the query (in the time window, by the call's time);
 * `within`: only the texts first sent at those lines (a session scope's pieces, session-scope.ts).
 */
export function promptHits(db: Database.Database, q: ParsedQuery, since: number | null, cap = PROMPT_CAP, within: IdSegment[] | null = null): Capped<PromptHit> {
  // Long terms whole (no pieces): a prompt row cannot be verified against its text afterwards, as events are.
  const plan = planScan(q, PROMPT_TABLES, true);
  if (plan === null) return { rows: [], capped: false };
  const { ids, capped } = matchingIds(db, plan, cap, PROMPT_PLACE, within);
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
