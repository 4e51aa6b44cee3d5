import type Database from 'better-sqlite3';
import { exclusionExpression, matchExpression, requiredExpression } from './fts-match';
import { TYPE_FILTERS, positiveTerms, type ParsedQuery } from './query-parser';

/** One matching event, as much as ranking and grouping need (no text: snippets are made for shown hits only). */
export interface EventHit {
  id: number;
  sessionNum: number;
  type: string;
  name: string | null;
  status: number;
  ts: number | null;
}

export interface ScanLimits {
  /** stop after this many matching events (that pass the filters) … */
  maxHits: number;
  /** … or after reading this many index matches (a filter may reject most of them) … */
  maxScanned: number;
  /** … or after this long; checked between chunks */
  maxMs: number;
  /** read exactly down to this rowid (a later page repeats the first page's scan); overrides the three above */
  floor?: number;
}

export interface ScanResult {
  hits: EventHit[];
  /** every match was read: counts are exact */
  exhausted: boolean;
  /** index matches read (before filters) */
  scanned: number;
  /** the lowest rowid read; a later page scans down to it again (0 when exhausted) */
  floor: number;
}

/** The first page's budget: a common word must not materialize 100k hits (ISSUE 3 acceptance: p95 ≤ 50 ms). */
export const FIRST_PAGE_LIMITS: ScanLimits = { maxHits: 4000, maxScanned: 30000, maxMs: 25 };
export const UNLIMITED: ScanLimits = { maxHits: Infinity, maxScanned: Infinity, maxMs: Infinity };

const FIRST_CHUNK = 400;
const CHUNK = 2000;

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQL (bound parameters only) for the event-level filters: type, status, tool, model, and the time window. */
export function eventFilterSql(q: ParsedQuery, since: number | null): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (q.type.length > 0) {
    const types = q.type.flatMap((t) => TYPE_FILTERS[t] as readonly string[]);
    const alts: string[] = [];
    if (types.length > 0) {
      alts.push(`e.type IN (${types.map((_, i) => `@type${i}`).join(', ')})`);
      types.forEach((t, i) => (params[`type${i}`] = t));
    }
    if (q.type.includes('error')) alts.push('e.status = 1');
    where.push(`(${alts.join(' OR ')})`);
  }
  if (q.status.length === 1) where.push(q.status[0] === 'error' ? 'e.status = 1' : 'e.status = 0');
  // tool: and model: are case-insensitive prefixes (model:gpt-4 finds gpt-4.1 and gpt-4o).
  for (const [col, values] of [['tool', q.tool], ['model', q.model]] as const) {
    if (values.length === 0) continue;
    where.push(`(${values.map((_, i) => `e.${col} LIKE @${col}${i} ESCAPE '\\'`).join(' OR ')})`);
    values.forEach((v, i) => (params[`${col}${i}`] = `${escapeLike(v)}%`));
  }
  if (since !== null) {
    where.push('e.ts >= @since');
    params.since = since;
  }
  return { sql: where.length === 0 ? '1' : where.join(' AND '), params };
}

interface Plan {
  driver: 'event_text' | 'event_cjk';
  match: string;
  /** per chunk, rowids of the other index that every hit must be in / must not be in */
  alsoRequired: { table: string; match: string } | null;
  excluded: { table: string; match: string } | null;
}

/**
 * Which index drives the scan: trigrams when there is a 3+ character term (the selective one), else the CJK
 * index. Terms of the other index are checked per chunk with one rowid-range query each, never per row.
 */
export function planScan(q: ParsedQuery): Plan | null {
  const terms = q.terms;
  const trigram = matchExpression(terms, 'trigram');
  const cjk = matchExpression(terms, 'cjk');
  if (trigram !== null) {
    const cjkRequired = requiredExpression(terms, 'cjk');
    const cjkExcluded = exclusionExpression(terms, 'cjk');
    return {
      driver: 'event_text',
      match: trigram,
      alsoRequired: cjkRequired ? { table: 'event_cjk', match: cjkRequired } : null,
      excluded: cjkExcluded ? { table: 'event_cjk', match: cjkExcluded } : null,
    };
  }
  if (cjk !== null) {
    const trigramExcluded = exclusionExpression(terms, 'trigram');
    return { driver: 'event_cjk', match: cjk, alsoRequired: null, excluded: trigramExcluded ? { table: 'event_text', match: trigramExcluded } : null };
  }
  return null;
}

/**
 * The chunk statement. FTS5 returns the matches of one chunk newest rowid first, from below `before`; each is
 * joined to its event by primary key, and the filters are evaluated as a column (not a WHERE) so that the
 * chunk's lowest rowid is known even when the filters reject all of it.
 *
 * Rowid bounds are CAST in SQL: better-sqlite3 binds JS numbers as REAL, and FTS5 ignores a rowid constraint
 * whose value is not an INTEGER, silently turning a seek into a scan of every match.
 */
export function chunkSql(plan: Plan, filterSql: string, withFloor: boolean): string {
  return `SELECT h.id, e.session_num AS sessionNum, e.type, e.name, e.status, e.ts, (e.id IS NOT NULL AND ${filterSql}) AS pass
FROM (SELECT rowid AS id FROM ${plan.driver} WHERE ${plan.driver} MATCH @match AND rowid < CAST(@before AS INTEGER)${
    withFloor ? ' AND rowid >= CAST(@floor AS INTEGER)' : ''
  } ORDER BY rowid DESC LIMIT @chunk) h
LEFT JOIN events e ON e.id = h.id`;
}

function rowidsInRange(db: Database.Database, table: string, match: string, lo: number, hi: number): Set<number> {
  const ids = db
    .prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)`)
    .pluck()
    .all(match, lo, hi) as number[];
  return new Set(ids);
}

/**
 * Reads the matching events newest rowid first, chunk by chunk, until the limits say stop or the matches run
 * out. Cost is bounded by the limits whatever the word: a word in 100k events reads a few thousand.
 */
export function scanEventHits(db: Database.Database, q: ParsedQuery, since: number | null, limits: ScanLimits): ScanResult {
  const plan = planScan(q);
  if (plan === null || positiveTerms(q).length === 0) return { hits: [], exhausted: true, scanned: 0, floor: 0 };
  const filter = eventFilterSql(q, since);
  const floor = limits.floor;
  const stmt = db.prepare(chunkSql(plan, filter.sql, floor !== undefined));
  const started = performance.now();
  const hits: EventHit[] = [];
  let before = Number.MAX_SAFE_INTEGER;
  let scanned = 0;
  let exhausted = false;
  let chunk = FIRST_CHUNK;
  for (;;) {
    const rows = stmt.all({ ...filter.params, match: plan.match, before, chunk, ...(floor !== undefined ? { floor } : {}) }) as (EventHit & { pass: number })[];
    if (rows.length === 0) {
      exhausted = floor === undefined || floor <= 0;
      break;
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of rows) {
      if (r.id < lo) lo = r.id;
      if (r.id > hi) hi = r.id;
    }
    const required = plan.alsoRequired ? rowidsInRange(db, plan.alsoRequired.table, plan.alsoRequired.match, lo, hi) : null;
    const excluded = plan.excluded ? rowidsInRange(db, plan.excluded.table, plan.excluded.match, lo, hi) : null;
    for (const r of rows) {
      if (!r.pass) continue;
      if (required && !required.has(r.id)) continue;
      if (excluded && excluded.has(r.id)) continue;
      hits.push({ id: r.id, sessionNum: r.sessionNum, type: r.type, name: r.name, status: r.status, ts: r.ts });
    }
    scanned += rows.length;
    before = lo;
    if (rows.length < chunk) {
      exhausted = floor === undefined || floor <= 0;
      break;
    }
    if (floor === undefined && (hits.length >= limits.maxHits || scanned >= limits.maxScanned || performance.now() - started >= limits.maxMs)) break;
    chunk = CHUNK;
  }
  return { hits, exhausted, scanned, floor: exhausted ? 0 : (floor ?? before) };
}
