import type Database from 'better-sqlite3';
import type { EventListParams, EventListResponse, TriageEvent } from '../../shared/api/triage';
import { decodeCursor, encodeCursor } from '../http/cursor';
import { foldWhitespace } from '../search/indexed-text';
import { cachedResult, windowStart } from './cache';
import { CALL_TYPES } from '../../shared/api/triage';
import { triageModel, type TriageModel } from './model';

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
 * `e.dur > 0`, `e.ttft IS NOT NULL` and `e.fail IS NOT NULL` terms are there so that the planner can prove
 * the partial indexes (events_dur, events_ttft, events_fail) apply: it cannot see through a bound parameter.
 */
export function eventFilter(q: EventListParams, now: number): { where: string[]; params: Record<string, unknown> } {
  const where = ['e.dup = 0'];
  const params: Record<string, unknown> = {};
  if (q.min >= 0) {
    where.push('e.dur > 0', 'e.dur > @min');
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
  const page = [...where];
  if (after) {
    page.push(desc ? `(${col} < @c0 OR (${col} = @c0 AND e.id < @c1))` : `(${col} > @c0 OR (${col} = @c0 AND e.id > @c1))`);
  }
  const dir = desc ? 'DESC' : 'ASC';
  // CROSS JOIN keeps events as the outer loop, so the sort index drives the scan and LIMIT stops it early.
  const rows = db
    .prepare(
      `SELECT e.id, e.type, e.name, e.model, e.tool, e.status, e.ts, e.dur, e.ttft, e.tokens_in, e.tokens_out, e.tokens_cached,
              substr(e.error, 1, 500) error, e.fail, s.id session_id, s.title, s.repository
       FROM events e CROSS JOIN sessions s ON s.num = e.session_num
       WHERE ${page.join(' AND ')}
       ORDER BY ${col} ${dir}, e.id ${dir} LIMIT @limit`,
    )
    .all({ ...params, ...(after ? { c0: after[0], c1: after[1] } : {}), limit: q.limit + 1 }) as Row[];
  const more = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  const last = shown[shown.length - 1];
  const sortValue = (r: Row) => (q.sort === 'dur' ? r.dur : q.sort === 'ts' ? r.ts : r.ttft);
  return {
    events: shown.map(toTriageEvent),
    nextCursor: more && last ? encodeCursor([sortValue(last), last.id]) : null,
    total: total.n,
    totalCapped: total.capped,
  };
}

/** Beyond this many matches, a total the model cannot give is reported as "at least this many". */
export const COUNT_CAP = 10_000;

function countEvents(db: Database.Database, q: EventListParams, where: string[], params: Record<string, unknown>, now: number): { n: number; capped: boolean } {
  const { cursor: _cursor, limit: _limit, order: _order, ...filters } = q;
  // Keyed with the sort too: the ttft and ts sorts add an IS NOT NULL term, the total is of the rows the list can show.
  const m = triageModel(db, now);
  return cachedResult(m, 'event-count', filters, now, () => {
    const exact = countInModel(m, q, now);
    if (exact !== null) return { n: exact, capped: false };
    // Text search and instant events of any type are not in the model: count in SQL, up to a cap.
    const n = (db.prepare(`SELECT count(*) n FROM (SELECT 1 FROM events e WHERE ${where.join(' AND ')} LIMIT ${COUNT_CAP + 1})`).get(params) as { n: number }).n;
    return n > COUNT_CAP ? { n: COUNT_CAP, capped: true } : { n, capped: false };
  });
}

const LLM = 0;
const TOOLISH = new Set(['tool_call', 'subagent']);

/**
 * The exact number of events matching a filter, counted over the triage model's columns, or null when some
 * matching rows may not be in the model (it holds every call and every event that took time, failed or is a
 * failure, not instant events such as user messages) or the filter needs the text index.
 */
export function countInModel(m: TriageModel, q: EventListParams, now: number): number | null {
  if (q.q !== undefined && foldWhitespace(q.q) !== '') return null;
  const types = q.type && q.type.length > 0 ? q.type : null;
  const onlyCalls = types !== null && types.every((t) => (CALL_TYPES as readonly string[]).includes(t));
  const covered = q.min >= 0 || q.status === 'error' || q.failed === '1' || q.sig !== undefined || onlyCalls || q.model !== undefined || q.tool !== undefined || q.sort === 'ttft';
  if (!covered) return null;
  // name is the subject only of types other than model calls, tool calls and subagents
  if (q.name !== undefined && (types === null || types.some((t) => t === 'llm_request' || TOOLISH.has(t)))) return null;
  if (q.tool === '') return null;

  let typeOk: Uint8Array | null = null;
  if (types !== null) {
    typeOk = new Uint8Array(m.types.length);
    for (const t of types) {
      const id = m.typeId(t);
      if (id !== undefined) typeOk[id] = 1;
    }
  }
  const toolTypes = new Uint8Array(m.types.length);
  for (const t of TOOLISH) {
    const id = m.typeId(t);
    if (id !== undefined) toolTypes[id] = 1;
  }
  const subjectOf = (v: string | undefined) => (v === undefined ? -2 : (m.stringId(v) ?? -1));
  const modelId = subjectOf(q.model);
  const toolId = subjectOf(q.tool);
  const nameId = subjectOf(q.name);
  if (modelId === -1 || toolId === -1 || nameId === -1) return 0;
  const since = windowStart(q.window, now);
  const from = Math.max(since, q.from ?? -Infinity);
  const to = q.to ?? Infinity;
  const timed = from !== -Infinity || to !== Infinity || q.sort === 'ts';
  const max = q.max ?? Infinity;
  const status = q.status === undefined ? -1 : q.status === 'error' ? 1 : 0;
  const wantRepo = q.repo === undefined ? undefined : q.repo === '' ? null : q.repo;
  const session = q.session === undefined ? -2 : (m.sessionNum(q.session) ?? -1);
  if (session === -1) return 0;
  let sigGroups: Uint8Array | null = null;
  if (q.sig !== undefined) {
    sigGroups = new Uint8Array(m.failGroups.length);
    m.failGroups.forEach((g, i) => (sigGroups![i] = g.signature === q.sig ? 1 : 0));
  }
  const failedOnly = q.failed === '1' || sigGroups !== null;
  const repoOk = new Map<number, boolean>();
  const { cType, cDur, cTs, cStatus, cSubject, cSession, cLlm, cFail, lTtft } = m;
  let n = 0;
  for (let i = 0; i < m.n; i++) {
    const type = cType[i];
    if (typeOk !== null && typeOk[type] === 0) continue;
    const dur = cDur[i];
    if (!(dur > q.min) || dur > max) continue;
    if (status !== -1 && cStatus[i] !== status) continue;
    if (modelId !== -2 && (type !== LLM || cSubject[i] !== modelId)) continue;
    if (toolId !== -2 && (toolTypes[type] === 0 || cSubject[i] !== toolId)) continue;
    if (nameId !== -2 && cSubject[i] !== nameId) continue;
    if (timed) {
      const ts = cTs[i];
      if (Number.isNaN(ts) || ts < from || ts >= to) continue;
    }
    if (failedOnly) {
      const g = cFail[i];
      if (g < 0 || (sigGroups !== null && sigGroups[g] === 0)) continue;
    }
    if (q.sort === 'ttft') {
      const l = cLlm[i];
      if (l < 0 || Number.isNaN(lTtft[l])) continue;
    }
    const s = cSession[i];
    if (session !== -2 && s !== session) continue;
    if (wantRepo !== undefined) {
      let ok = repoOk.get(s);
      if (ok === undefined) {
        ok = m.repositoryOf(s) === wantRepo;
        repoOk.set(s, ok);
      }
      if (!ok) continue;
    }
    n++;
  }
  return n;
}

function toTriageEvent(r: Row): TriageEvent {
  return {
    id: r.id,
    sessionId: r.session_id,
    sessionTitle: r.title,
    repository: r.repository,
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
