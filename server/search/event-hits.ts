import type Database from 'better-sqlite3';
import { exclusionExpression, matchExpression, needsVerification, requiredExpression } from './fts-match';
import { TYPE_FILTERS, positiveTerms, type ParsedQuery } from './query-parser';
import { plucked, statement } from '../db/statements';
import { verifyCandidates } from './verify-candidates';
import { segmentsNewestFirst, type IdSegment } from '../db/id-order';
import { inScope, type SessionScope } from './session-scope';

/** Matching events of one session with one type and status: how many, and the earliest of them. */
export interface HitGroup {
  sessionNum: number;
  type: string;
  status: number;
  n: number;
  firstTs: number | null;
  firstId: number;
}

export interface ScanLimits {
  /** stop after this many matching events (that pass the filters) … */
  maxHits: number;
  /** … or after reading this many index matches (a filter may reject most of them) … */
  maxScanned: number;
  /**
   * … or after this long, checked between chunks: a safety net only. The match counts above are what bound
   * the work, so that the same query ranks the same sessions whatever else the machine is doing (a wall clock
   * that cuts early under load would rank fewer; process CPU time would count the ingest worker's too).
   */
  maxMs: number;
  /** read exactly these ids (a later page repeats the first page's read, ScanResult.read); overrides the three above */
  ranges?: IdSegment[];
  /** matches per chunk after the first (tests use small chunks to exercise the budget) */
  chunk?: number;
}

export interface ScanResult {
  groups: HitGroup[];
  /** matching events that passed the filters */
  events: number;
  /** every match was read: counts are exact */
  exhausted: boolean;
  /** index matches read (before filters) */
  scanned: number;
  /** the ids read, newest first; a later page reads exactly these again (empty when exhausted: it reads all) */
  read: IdSegment[];
}

/**
 * The first page's budget: a common word must not materialize 100k hits (ISSUE 3 acceptance: p95 ≤ 50 ms). The
 * counts bound it (6,000 matching events, or 8,000 matches read when filters reject some: ~20 ms on the bench
 * corpus), so that a query shows the same sessions whatever the machine is doing; 25 ms is the safety net,
 * checked between chunks. The rest of the 50 is ranking, the snippets of the sessions shown (~5 ms for 60), the
 * session directory and the read worker's round trip. Until the scan read newest first (id-order.ts), a selective
 * filter over a common identifier (`Reconnect type:tool`, 30 days) found none of its matches on the bench corpus
 * (its 25 ms read 12,000 older ones) and built no snippets; it now shows 78 sessions from the window's newest
 * 8,000 matches, and with 30,000 matches it was the clock that stopped it (21 to 104 sessions from run to run).
 */
export const FIRST_PAGE_LIMITS: ScanLimits = { maxHits: 6000, maxScanned: 8000, maxMs: 25 };
export const UNLIMITED: ScanLimits = { maxHits: Infinity, maxScanned: Infinity, maxMs: Infinity };

const CHUNK = 2000;
/**
 * A session scope's pieces hold other sessions' matches between its own (session-scope.ts): read as rowids only
 * (0.15–0.45 µs each on the bench corpus, against ~2.5 µs a match joined and counted), at most this many times the
 * budget's matches read.
 */
const SKIPPED_PER_SCANNED = 5;
/**
 * Candidates read at a time when they must be verified (a long term): each costs a read of its archived line,
 * ~0.6 ms on the 512 MB corpus (an inflated chunk and a JSON.parse), so the time budget is checked every ~40 ms
 * rather than after thousands (200 at a time took 270 ms there for a phrase whose pieces are in 288 events).
 */
const VERIFY_CHUNK = 64;

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

/** A pair of FTS tables over the same rowids: trigrams for 3+ character terms, one token per CJK character. */
export interface TextTables {
  trigram: string;
  cjk: string;
}
export const EVENT_TABLES: TextTables = { trigram: 'event_text', cjk: 'event_cjk' };

export interface Plan {
  driver: string;
  match: string;
  /** per chunk, rowids of the other index that every hit must be in / must not be in */
  alsoRequired: { table: string; match: string } | null;
  excluded: { table: string; match: string } | null;
}

/**
 * Which index drives the scan: trigrams when there is a 3+ character term (the selective one), else the CJK
 * index. Terms of the other index are checked per chunk with one rowid-range query each, never per row.
 */
export function planScan(q: ParsedQuery, tables: TextTables = EVENT_TABLES, exact = false): Plan | null {
  const terms = q.terms;
  const trigram = matchExpression(terms, 'trigram', exact);
  const cjk = matchExpression(terms, 'cjk', exact);
  if (trigram !== null) {
    const cjkRequired = requiredExpression(terms, 'cjk', exact);
    const cjkExcluded = exclusionExpression(terms, 'cjk', exact);
    return {
      driver: tables.trigram,
      match: trigram,
      alsoRequired: cjkRequired ? { table: tables.cjk, match: cjkRequired } : null,
      excluded: cjkExcluded ? { table: tables.cjk, match: cjkExcluded } : null,
    };
  }
  if (cjk !== null) {
    const trigramExcluded = exclusionExpression(terms, 'trigram', exact);
    return { driver: tables.cjk, match: cjk, alsoRequired: null, excluded: trigramExcluded ? { table: tables.trigram, match: trigramExcluded } : null };
  }
  return null;
}

/**
 * The matching rowids between @lo and @hi of one segment, in the segment's order (server/db/id-order.ts: descending
 * where ids follow time, ascending in a backfill's run), as many as the budget allows (+1 to know whether more
 * exist): one FTS5 call, rowids only, well under a µs each. Few calls matter: each opens the doclists of every
 * trigram of the phrase again. The bounds are CAST in SQL: better-sqlite3 binds JS numbers as REAL, and FTS5
 * ignores a rowid constraint whose value is not an INTEGER, silently turning a seek into a scan of every match.
 */
export function matchIdsSql(plan: Plan, newestFirst: boolean): string {
  return `SELECT rowid FROM ${plan.driver} WHERE ${plan.driver} MATCH @match AND rowid >= CAST(@lo AS INTEGER) AND rowid <= CAST(@hi AS INTEGER) ORDER BY rowid ${
    newestFirst ? 'ASC' : 'DESC'
  } LIMIT @limit`;
}

const inRange = (table: string, param: string) =>
  `SELECT rowid FROM ${table} WHERE ${table} MATCH @${param} AND rowid BETWEEN CAST(@lo AS INTEGER) AND CAST(@hi AS INTEGER)`;

/**
 * Per chunk of rowids: each joined to its event by primary key, filtered, and aggregated per (session, type,
 * status) in SQL, so that a few hundred rows reach JS instead of thousands (a JS object per match costs ten
 * times the join). `e.id` next to the single min() is SQLite's bare column: the id of the earliest event.
 * Terms of the other index are one rowid-range query per chunk, never a probe per row.
 */
export function chunkGroupsSql(plan: Plan, filterSql: string): string {
  const also = plan.alsoRequired ? `\n  AND j.value IN (${inRange(plan.alsoRequired.table, 'required')})` : '';
  const not = plan.excluded ? `\n  AND j.value NOT IN (${inRange(plan.excluded.table, 'excluded')})` : '';
  // CROSS JOIN pins the order: the chunk's ids drive, events is probed by primary key (never scanned).
  return `SELECT e.session_num AS sessionNum, e.type, e.status, count(*) AS n, min(coalesce(e.ts, ${NO_TS})) AS firstTs, e.id AS firstId
FROM json_each(@ids) j CROSS JOIN events e ON e.id = j.value
WHERE ${filterSql}${also}${not}
GROUP BY e.session_num, e.type, e.status`;
}

const NO_TS = Number.MAX_SAFE_INTEGER;

/**
 * Reads the matching events newest first (server/db/id-order.ts) until the limits say stop or the matches run
 * out. Cost is bounded by the limits whatever the word: a word in 100k events reads a bounded slice of them.
 * With a `scope` (session-scope.ts: a repo: filter, or the sessions a file: or ref: names) only the ids of its
 * sessions' files are read, first to last of each file (another session's lines between a live file's count too).
 */
export function scanEventHits(db: Database.Database, q: ParsedQuery, since: number | null, limits: ScanLimits, scope: SessionScope | null = null): ScanResult {
  const plan = planScan(q);
  if (plan === null || positiveTerms(q).length === 0) return { groups: [], events: 0, exhausted: true, scanned: 0, read: [] };
  const filter = eventFilterSql(q, since);
  const given = limits.ranges;
  const groupsStmt = statement(db, chunkGroupsSql(plan, filter.sql));
  const extra: Record<string, unknown> = { ...filter.params };
  if (plan.alsoRequired) extra.required = plan.alsoRequired.match;
  if (plan.excluded) extra.excluded = plan.excluded.match;
  const started = performance.now();
  const merged = new Map<string, HitGroup>();
  // A long term's pieces find candidates; each is kept only if its text holds every term (fts-match.ts).
  const verify = needsVerification(q.terms);
  const chunk = limits.chunk ?? (verify ? VERIFY_CHUNK : CHUNK);
  let events = 0;
  let scanned = 0;
  /** the last id read, in the segment's order */
  let last = 0;

  const addChunk = (candidates: number[]) => {
    scanned += candidates.length;
    last = candidates[candidates.length - 1];
    const ids = verify ? verifyCandidates(db, candidates, q.terms) : candidates;
    if (ids.length === 0) return;
    // in the segment's order, up or down (verification keeps it): the range is between the two ends
    const [lo, hi] = ids[0] < ids[ids.length - 1] ? [ids[0], ids[ids.length - 1]] : [ids[ids.length - 1], ids[0]];
    const rows = groupsStmt.all({ ...extra, ids: JSON.stringify(ids), lo, hi }) as HitGroup[];
    for (const r of rows) {
      if (r.firstTs === NO_TS) r.firstTs = null;
      events += r.n;
      const key = `${r.sessionNum}\u0000${r.type}\u0000${r.status}`;
      const prev = merged.get(key);
      if (!prev) merged.set(key, r);
      else {
        prev.n += r.n;
        if ((r.firstTs ?? NO_TS) < (prev.firstTs ?? NO_TS)) {
          prev.firstTs = r.firstTs;
          prev.firstId = r.firstId;
        }
      }
    }
  };
  /** matches read as rowids and left out as not in the scope: bounded by count too, so that the page is the same on any machine */
  let skipped = 0;
  const overBudget = () =>
    given === undefined && (events >= limits.maxHits || scanned >= limits.maxScanned || skipped >= limits.maxScanned * SKIPPED_PER_SCANNED || performance.now() - started >= limits.maxMs);

  const segments = given ?? scope?.segments ?? segmentsNewestFirst(db);
  const read: IdSegment[] = [];
  let stopped = false;
  for (const seg of segments) {
    const idsStmt = plucked(db, matchIdsSql(plan, seg.newestFirst));
    let { lo, hi } = seg;
    for (;;) {
      // Budgeted: ask for what the budget still allows (the filters may reject some, hence the loop).
      const want = given !== undefined ? -1 : Math.max(chunk, Math.min(limits.maxHits - events, limits.maxScanned - scanned));
      const matched = idsStmt.all({ match: plan.match, lo, hi, limit: want === -1 || !Number.isFinite(want) ? -1 : want + 1 }) as number[];
      const more = want !== -1 && Number.isFinite(want) && matched.length > want;
      if (more) matched.pop();
      const lastRead = matched[matched.length - 1];
      // a scope's joined pieces hold other sessions' lines: rowids only, never joined nor counted as scanned
      const ids = scope === null ? matched : matched.filter((id) => inScope(scope, id));
      skipped += matched.length - ids.length;
      // ids already read are all joined: at most the budget's worth, ~1 µs each
      let cut = false;
      for (let i = 0; i < ids.length; i += chunk) {
        addChunk(ids.slice(i, i + chunk));
        // The budget is checked between chunks (one FTS5 read of the rest is cheap, the join of its chunks is not;
        // a verified candidate costs most of all).
        if (i + chunk < ids.length && overBudget()) {
          cut = true;
          break;
        }
      }
      if (cut || (more && overBudget())) {
        // stopped inside the segment: a later page reads it up to the last id read
        const end = cut ? last : lastRead;
        read.push(seg.newestFirst ? { lo: seg.lo, hi: end, newestFirst: true } : { lo: end, hi: seg.hi, newestFirst: false });
        stopped = true;
        break;
      }
      if (!more) {
        read.push(seg);
        break;
      }
      if (seg.newestFirst) lo = lastRead + 1;
      else hi = lastRead - 1;
    }
    if (stopped) break;
    // the next segment only within the budget: a whole segment read is where a later page can stop too
    if (seg !== segments[segments.length - 1] && overBudget()) {
      stopped = true;
      break;
    }
  }
  const exhausted = given === undefined && !stopped;
  return { groups: [...merged.values()], events, exhausted, scanned, read: exhausted ? [] : read };
}
