import type Database from 'better-sqlite3';
import { CACHE_BREAK_DROP, CACHE_BREAK_FROM, CACHE_MIN_TOKENS, WINDOW_MS, type CacheBreak, type CacheParams, type CacheResponse } from '../../shared/api';

const MAX_BREAKS = 200;

interface CallRow {
  id: number;
  session_num: number;
  session_id: string;
  title: string | null;
  ts: number | null;
  model: string | null;
  tin: number;
  tcached: number;
  prev_id: number | null;
  prev_tin: number | null;
  prev_cached: number | null;
}

/** GET /api/usage/cache: the rules are in shared/api/usage.ts (CacheQuery). */
export function cacheBreaks(db: Database.Database, q: CacheParams, now = Date.now()): CacheResponse {
  const span = WINDOW_MS[q.window];
  const where = ["e.type = 'llm_request'", 'e.dup = 0', 'e.tokens_cached IS NOT NULL', 'e.tokens_in >= @min'];
  const params: Record<string, unknown> = { min: CACHE_MIN_TOKENS };
  if (q.session !== undefined) {
    where.push('s.id = @session');
    params.session = q.session;
  }
  if (q.repo !== undefined) {
    where.push(q.repo === '' ? 's.repository IS NULL' : 's.repository = @repo');
    if (q.repo !== '') params.repo = q.repo;
  }
  // The previous call is looked up over all time, so that the first call of the window is compared too.
  const rows = db
    .prepare(
      `SELECT * FROM (
         SELECT e.id, e.session_num, s.id session_id, s.title, e.ts, e.model, e.tokens_in tin, e.tokens_cached tcached,
           lag(e.id) OVER w prev_id, lag(e.tokens_in) OVER w prev_tin, lag(e.tokens_cached) OVER w prev_cached
         FROM events e JOIN sessions s ON s.num = e.session_num
         WHERE ${where.join(' AND ')}
         WINDOW w AS (PARTITION BY e.session_num, e.model ORDER BY e.ts, e.id)
       ) WHERE ts >= @since`,
    )
    .all({ ...params, since: span === null ? -1e15 : now - span }) as CallRow[];
  const byModel = new Map<string | null, { calls: number; tokensIn: number; tokensCached: number; breaks: number }>();
  const breaks: CacheBreak[] = [];
  let compared = 0;
  for (const r of rows) {
    const m = byModel.get(r.model) ?? { calls: 0, tokensIn: 0, tokensCached: 0, breaks: 0 };
    m.calls++;
    m.tokensIn += r.tin;
    m.tokensCached += r.tcached;
    byModel.set(r.model, m);
    if (r.prev_id === null || !r.prev_tin) continue;
    compared++;
    const share = r.tcached / r.tin;
    const previousShare = (r.prev_cached ?? 0) / r.prev_tin;
    if (previousShare >= CACHE_BREAK_FROM && share <= previousShare - CACHE_BREAK_DROP) {
      m.breaks++;
      breaks.push({ eventId: r.id, sessionId: r.session_id, sessionTitle: r.title, ts: r.ts, model: r.model, tokensIn: r.tin, share, previousShare, previousEventId: r.prev_id });
    }
  }
  breaks.sort((a, b) => (b.ts ?? 0) - (a.ts ?? 0) || b.eventId - a.eventId);
  return {
    callsCompared: compared,
    totalBreaks: breaks.length,
    breaks: breaks.slice(0, MAX_BREAKS),
    byModel: [...byModel]
      .map(([model, m]) => ({ model, ...m, share: m.tokensIn > 0 ? m.tokensCached / m.tokensIn : null }))
      .sort((a, b) => b.calls - a.calls || String(a.model).localeCompare(String(b.model))),
  };
}
