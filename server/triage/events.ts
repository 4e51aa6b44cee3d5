import type Database from 'better-sqlite3';
import { cliCallShares } from '../usage/cli-usage';
import { SLOW_MS, type EventListParams, type EventListResponse, type TriageEvent } from '../../shared/api/triage';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { foldWhitespace } from '../search/indexed-text';
import { cachedResult, cachedWhileUnchanged, windowStart } from './cache';
import { triageModel } from './model';
import { countInModel, pageInModel } from './model-filter';

const SORT_COLUMN = { dur: 'e.dur', ts: 'e.ts', ttft: 'e.ttft' } as const;

interface Row {
  id: number;
  type: string;
  name: string | null;
  model: string | null;
  tool: string | null;
  status: number;
  ts: number | null;
  dur: number;
  ttft: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_cached: number | null;
  error: string | null;
  fail: string | null;
  session_id: string;
  title: string | null;
  repository: string | null;
  source: string;
}

/** A trigram FTS5 phrase for a substring: the whole text quoted, quotes doubled (never raw FTS5 syntax). */
function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The WHERE terms of a filter, from whitelisted fragments with bound parameters. The literal `e.dup = 0`,
 * `e.dur > 5000` and `e.fail IS NOT NULL` terms are there so that the planner can prove the partial indexes
 * (events_dur, events_slow_ts, events_fail) apply: it cannot see through a bound parameter.
 */
export function eventFilter(q: EventListParams, now: number): { where: string[]; params: Record<string, unknown> } {
  const where = ['e.dup = 0'];
  const params: Record<string, unknown> = {};
  if (q.min >= 0) {
    where.push('e.dur > 0', 'e.dur > @min');
    // the slow indexes hold only dur > SLOW_MS (server/db/schema.ts): a literal the planner can match them by
    if (q.min >= SLOW_MS) where.push(`e.dur > ${SLOW_MS}`);
    params.min = q.min;
  }
  if (q.max !== undefined) {
    where.push('e.dur <= @max');
    params.max = q.max;
  }
  if (q.type && q.type.length > 0) {
    where.push(`e.type IN (${q.type.map((_, i) => `@type${i}`).join(', ')})`);
    q.type.forEach((t, i) => (params[`type${i}`] = t));
  }
  if (q.status) where.push(q.status === 'error' ? 'e.status = 1' : 'e.status = 0');
  for (const col of ['model', 'tool', 'name'] as const) {
    const v = q[col];
    if (v === undefined) continue;
    if (v === '') where.push(`e.${col} IS NULL`);
    else {
      where.push(`e.${col} = @${col}`);
      params[col] = v;
    }
  }
  if (q.repo !== undefined) {
    if (q.repo === '') where.push('e.session_num IN (SELECT num FROM sessions WHERE repository IS NULL)');
    else {
      where.push('e.session_num IN (SELECT num FROM sessions WHERE repository = @repo)');
      params.repo = q.repo;
    }
  }
  if (q.source !== undefined) {
    where.push('e.session_num IN (SELECT num FROM sessions WHERE source = @source)');
    params.source = q.source;
  }
  if (q.session !== undefined) {
    where.push('e.session_num = (SELECT num FROM sessions WHERE id = @session)');
    params.session = q.session;
  }
  const since = windowStart(q.window, now);
  if (since !== -Infinity) {
    where.push('e.ts >= @since');
    params.since = since;
  }
  if (q.from !== undefined) {
    where.push('e.ts >= @from');
    params.from = q.from;
  }
  if (q.to !== undefined) {
    where.push('e.ts < @to');
    params.to = q.to;
  }
  const text = q.q === undefined ? '' : foldWhitespace(q.q);
  if (text !== '') {
    if ([...text].length >= 3) {
      where.push('e.id IN (SELECT rowid FROM event_text WHERE event_text MATCH @fts)');
      params.fts = ftsPhrase(text);
    } else {
      where.push("(e.name LIKE @like ESCAPE '\\' OR e.error LIKE @like ESCAPE '\\' OR e.model LIKE @like ESCAPE '\\' OR e.tool LIKE @like ESCAPE '\\')");
      params.like = likePattern(text);
    }
  }
  if (q.failed === '1' || q.sig !== undefined) where.push('e.fail IS NOT NULL');
  if (q.sig !== undefined) {
    where.push('e.fail = @sig');
    params.sig = q.sig;
  }
  if (q.sort === 'ttft') where.push('e.ttft IS NOT NULL');
  if (q.sort === 'ts') where.push('e.ts IS NOT NULL');
  return { where, params };
}

const ROW_COLUMNS = `e.id, e.type, e.name, e.model, e.tool, e.status, e.ts, e.dur, e.ttft, e.tokens_in, e.tokens_out, e.tokens_cached,
  substr(e.error, 1, 500) error, e.fail, s.id session_id, s.title, s.repository, s.source`;

/** Whether a filter has eventFilter's text term (trigram MATCH, or LIKE for fewer than 3 characters). */
function searchesText(where: string[]): boolean {
  return where.some((w) => w.includes('event_text') || w.includes('LIKE'));
}

/**
 * Whether a partial index drives this list in SQL with LIMIT stopping the scan early: a signature (events_fail),
 * or no column filter with a threshold of at least the slow one (events_dur, or events_slow_ts newest first),
 * errors by time (events_errors), or a text search (the model has no text). Any other filter — a model, a tool, a
 * hook type, a repository, a source, a window, a lower threshold, instant calls, the TTFT sort — would make SQL scan
 * and sort most of the table; the triage model answers those in one pass over its columns, and SQL then reads the
 * page's rows by id. (The TTFT sort had an index of its own, every model call by ttft: ~0.6 µs of each event's
 * insert at 1.6 GiB, and 232 ms for the first page at the default threshold, which the model answers in 34.)
 */
function sqlIndexServes(q: EventListParams, where: string[]): boolean {
  if (q.q !== undefined && searchesText(where)) return true;
  if (q.sig !== undefined) return true;
  const columns = q.model !== undefined || q.tool !== undefined || q.name !== undefined || q.repo !== undefined || q.source !== undefined || q.session !== undefined || (q.type !== undefined && q.type.length > 0) || q.status === 'ok';
  const timed = q.window !== 'all' || q.from !== undefined || q.to !== undefined;
  if (columns || timed) return false;
  if (q.sort === 'dur') return q.min >= SLOW_MS;
  // newest first down events_slow_ts, or events_errors
  return q.sort === 'ts' && (q.min >= SLOW_MS || q.status === 'error');
}

/** Terms that read nothing events_dur does not hold: dur, its key, and dup = 0 and dur > SLOW_MS, its condition. */
const DUR_INDEX_TERMS = new Set(['e.dup = 0', 'e.dur > 0', 'e.dur > @min', `e.dur > ${SLOW_MS}`, 'e.dur <= @max']);

/**
 * How a list's total is counted when the triage model does not count it: 'text' for a text search (the model has no
 * text: SQL up to COUNT_CAP), 'slow' for the slow calls with no other filter (events_dur covers the count: 2.4 ms for
 * the 91,139 slow calls of the 1.6 GiB bench archive), null when the model counts it.
 */
function totalInSql(where: string[]): 'text' | 'slow' | null {
  if (searchesText(where)) return 'text';
  if (where.includes(`e.dur > ${SLOW_MS}`) && where.every((w) => DUR_INDEX_TERMS.has(w))) return 'slow';
  return null;
}

/**
 * Whether a list needs the triage model: not when SQL's indexes give both its page and its total (the default slow
 * list, and text searches). Those are answered without waiting for the model to sync the last commit, which during a
 * backfill is a group of ~100,000 events and 100+ ms on a busy core (the slowest computed requests of the bench's
 * queries during the backfill: /api/events?min=5000, p95 ~145 ms, issue 19).
 */
export function eventListNeedsModel(q: EventListParams, now = Date.now()): boolean {
  const { where } = eventFilter(q, now);
  return !(sqlIndexServes(q, where) && totalInSql(where) !== null);
}

/**
 * GET /api/events: canonical events across every session, by default the calls slower than 5 s, slowest
 * first; keyset-paginated on (sort value, id). The total is counted once per index version and filter set.
 */
export function listEvents(db: Database.Database, q: EventListParams, now = Date.now()): EventListResponse {
  const { where, params } = eventFilter(q, now);
  const col = SORT_COLUMN[q.sort];
  const desc = q.order === 'desc';
  const total = countEvents(db, q, where, params, now);
  const after = decodeCursor(q.cursor, 2);
  const fromModel = sqlIndexServes(q, where) ? null : pageInModel(triageModel(db, now), q, after, q.limit + 1, now);
  let rows: Row[];
  if (fromModel !== null) {
    const byId = new Map<number, Row>();
    if (fromModel.ids.length > 0) {
      const found = db.prepare(`SELECT ${ROW_COLUMNS} FROM events e CROSS JOIN sessions s ON s.num = e.session_num WHERE e.id IN (${fromModel.ids.map(() => '?').join(', ')})`).all(...fromModel.ids) as Row[];
      for (const r of found) byId.set(r.id, r);
    }
    rows = fromModel.ids.map((id) => byId.get(id)).filter((r): r is Row => r !== undefined);
  } else {
    const page = [...where];
    if (after) {
      page.push(desc ? `(${col} < @c0 OR (${col} = @c0 AND e.id < @c1))` : `(${col} > @c0 OR (${col} = @c0 AND e.id > @c1))`);
    }
    const dir = desc ? 'DESC' : 'ASC';
    // CROSS JOIN keeps events as the outer loop, so the sort index drives the scan and LIMIT stops it early.
    rows = db
      .prepare(`SELECT ${ROW_COLUMNS} FROM events e CROSS JOIN sessions s ON s.num = e.session_num WHERE ${page.join(' AND ')} ORDER BY ${col} ${dir}, e.id ${dir} LIMIT @limit`)
      .all({ ...params, ...(after ? { c0: after[0], c1: after[1] } : {}), limit: q.limit + 1 }) as Row[];
  }
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const last = shown[shown.length - 1];
  const sortValue = (r: Row) => (q.sort === 'dur' ? r.dur : q.sort === 'ts' ? r.ts : r.ttft);
  return {
    events: withCliUsage(db, shown.map(toTriageEvent)),
    nextCursor: more && last ? encodeCursor([sortValue(last), last.id]) : null,
    total: total.n,
    totalCapped: total.capped,
  };
}

/** Beyond this many matches, a total the model cannot give is reported as "at least this many". */
export const COUNT_CAP = 10_000;

function countEvents(db: Database.Database, q: EventListParams, where: string[], params: Record<string, unknown>, now: number): { n: number; capped: boolean } {
  const { cursor: _cursor, limit: _limit, order: _order, ...filters } = q;
  // Text search and instant events of any type are not in the model: counted in SQL, up to a cap.
  const capped = () => {
    const n = (db.prepare(`SELECT count(*) n FROM (SELECT 1 FROM events e WHERE ${where.join(' AND ')} LIMIT ${COUNT_CAP + 1})`).get(params) as { n: number }).n;
    return n > COUNT_CAP ? { n: COUNT_CAP, capped: true } : { n, capped: false };
  };
  const inSql = totalInSql(where);
  if (inSql === 'text') return cachedWhileUnchanged(db, 'event-count', filters, now, capped);
  if (inSql === 'slow') {
    // every slow call, or those under a ceiling: a count of events_dur alone, never capped (the model's own figure)
    return cachedWhileUnchanged(db, 'event-count', filters, now, () => ({ n: (db.prepare(`SELECT count(*) n FROM events e WHERE ${where.join(' AND ')}`).get(params) as { n: number }).n, capped: false }));
  }
  // Keyed with the sort too: the ttft and ts sorts add an IS NOT NULL term, the total is of the rows the list can show.
  const m = triageModel(db, now);
  return cachedResult(m, 'event-count', filters, now, () => {
    const exact = countInModel(m, q, now);
    return exact !== null ? { n: exact, capped: false } : capped();
  });
}

/**
 * A Copilot CLI model call writes only output tokens: its input and cached tokens are its own line of VS Code's
 * agentHostUsage side file, or its share of the session's shutdown totals (`estimated`), as usage counts them.
 */
function withCliUsage(db: Database.Database, events: TriageEvent[]): TriageEvent[] {
  const ids = events.filter((e) => e.source === 'cli' && e.type === 'llm_request' && e.tokensIn === null).map((e) => e.id);
  if (ids.length === 0) return events;
  const { shares } = cliCallShares(db, 'FROM events e JOIN sessions s ON s.num = e.session_num', 'e.id IN (SELECT value FROM json_each(@ids))', { ids: JSON.stringify(ids) }, 'CAST(e.id AS TEXT)', "''");
  const byId = new Map(shares.map((sh) => [Number(sh.key), sh]));
  return events.map((e) => {
    const sh = byId.get(e.id);
    return sh ? { ...e, tokensIn: Math.round(sh.tokensIn), tokensCached: Math.round(sh.tokensCached), estimated: sh.estimated } : e;
  });
}

function toTriageEvent(r: Row): TriageEvent {
  return {
    id: r.id,
    sessionId: r.session_id,
    sessionTitle: r.title,
    repository: r.repository,
    source: r.source === 'cli' ? 'cli' : 'vscode',
    type: r.type,
    name: r.name,
    model: r.model,
    tool: r.tool,
    status: r.status === 1 ? 'error' : 'ok',
    ts: r.ts,
    dur: r.dur,
    ttft: r.ttft,
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
    tokensCached: r.tokens_cached,
    error: r.error,
    signature: r.fail,
  };
}
