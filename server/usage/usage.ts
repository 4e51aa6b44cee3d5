import type Database from 'better-sqlite3';
import { creditsOf, NANO_PER_CREDIT, USD_PER_CREDIT, WINDOW_MS, type UsageParams, type UsageResponse, type UsageRow, type UsageTotals } from '../../shared/api';
import { cliCallShares, type CliCallShare } from './cli-usage';

interface Agg {
  key: string | null;
  calls: number;
  tin: number | null;
  tout: number | null;
  tcached: number | null;
  nano: number | null;
  credited: number;
}

/**
 * What Copilot CLI calls add, which their events lack (cli-usage.ts): side-file values (exact) and splits of
 * session totals (estimated, also counted in est*), summed and rounded once.
 */
interface Estimate {
  tin: number;
  tcached: number;
  nano: number;
  /** calls whose credits these give */
  credited: number;
  estTin: number;
  estTcached: number;
  estNano: number;
  sessionsWithoutUsage: number;
}

const NO_ESTIMATE: Estimate = { tin: 0, tcached: 0, nano: 0, credited: 0, estTin: 0, estTcached: 0, estNano: 0, sessionsWithoutUsage: 0 };

function estimateOf(shares: readonly CliCallShare[], sessionsWithoutUsage = 0): Estimate {
  const e = { ...NO_ESTIMATE, sessionsWithoutUsage };
  for (const s of shares) {
    e.tin += s.tokensIn;
    e.tcached += s.tokensCached;
    if (s.creditsNano !== null) {
      e.nano += s.creditsNano;
      e.credited++;
    }
    if (s.estimated) {
      e.estTin += s.tokensIn;
      e.estTcached += s.tokensCached;
      e.estNano += s.creditsNano ?? 0;
    }
  }
  const r = Math.round;
  return { ...e, tin: r(e.tin), tcached: r(e.tcached), nano: r(e.nano), estTin: r(e.estTin), estTcached: r(e.estTcached), estNano: r(e.estNano) };
}

const KEY_SQL = {
  model: 'e.model',
  repository: 's.repository',
  day: "strftime('%Y-%m-%d', e.ts / 1000, 'unixepoch')",
} as const;

type Sums = Omit<Agg, 'key'>;

/** The sums of some cells (SQL's NULL sums as 0: every reader of a sum took `?? 0`). */
function sumOf(cells: readonly Sums[]): { calls: number; tin: number; tout: number; tcached: number; nano: number; credited: number } {
  const t = { calls: 0, tin: 0, tout: 0, tcached: 0, nano: 0, credited: 0 };
  for (const c of cells) {
    t.calls += c.calls;
    t.tin += c.tin ?? 0;
    t.tout += c.tout ?? 0;
    t.tcached += c.tcached ?? 0;
    t.nano += c.nano ?? 0;
    t.credited += c.credited;
  }
  return t;
}

/** Cells summed by a key of theirs, each with the first of its cells (what the key was made of). */
function groupSums<C extends Sums, K>(cells: readonly C[], keyOf: (c: C) => K): Map<K, { cell: C; sums: ReturnType<typeof sumOf> }> {
  const parts = new Map<K, C[]>();
  for (const c of cells) {
    const k = keyOf(c);
    const list = parts.get(k);
    if (list) list.push(c);
    else parts.set(k, [c]);
  }
  return new Map([...parts].map(([k, list]) => [k, { cell: list[0], sums: sumOf(list) }]));
}

function totalsOf(a: Omit<Agg, 'key'>, requests: number, est: Estimate = NO_ESTIMATE): UsageTotals {
  const tokensIn = (a.tin ?? 0) + est.tin;
  const tokensCached = (a.tcached ?? 0) + est.tcached;
  const nano = (a.nano ?? 0) + est.nano;
  return {
    requests,
    modelCalls: a.calls,
    tokensIn,
    tokensOut: a.tout ?? 0,
    tokensCached,
    cacheHitRatio: tokensIn > 0 ? tokensCached / tokensIn : null,
    credits: creditsOf(nano)!,
    creditsNano: nano,
    creditsEstimated: creditsOf(est.estNano)!,
    usd: nano / (NANO_PER_CREDIT / USD_PER_CREDIT),
    callsWithoutCredits: a.calls - a.credited - est.credited,
    estimated: est.estTin > 0 || est.estTcached > 0 || est.estNano > 0,
    tokensInEstimated: est.estTin,
    tokensCachedEstimated: est.estTcached,
    sessionsWithoutUsage: est.sessionsWithoutUsage,
  };
}

/**
 * GET /api/usage and `chronoscope usage`: the counting rules are in shared/api/usage.ts. Model calls are read
 * through `events_model_calls` (canonical llm_request by start time); requests are canonical user messages.
 */
export function usage(db: Database.Database, q: UsageParams, now = Date.now()): UsageResponse {
  const span = WINDOW_MS[q.window];
  const where = ['e.dup = 0', 'e.ts >= @since'];
  const params: Record<string, unknown> = { since: span === null ? -1e15 : now - span };
  if (q.repo !== undefined) {
    where.push(q.repo === '' ? 's.repository IS NULL' : 's.repository = @repo');
    if (q.repo !== '') params.repo = q.repo;
  }
  const calls = `FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'llm_request' AND ${where.join(' AND ')}`;
  const sums = 'count(*) calls, sum(e.tokens_in) tin, sum(e.tokens_out) tout, sum(e.tokens_cached) tcached, sum(e.credits_nano) nano, count(e.credits_nano) credited';
  const requestsBy = (key: string) => `SELECT ${key} key, count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'user_message' AND ${where.join(' AND ')} GROUP BY 1`;

  const key = KEY_SQL[q.by];
  // One pass over the window's model calls, by day, model and the rows' key: the totals, the rows and the daily series
  // are sums of these (three passes took ~1 s over all time of the bench archive's 418k calls).
  const cells = db.prepare(`SELECT ${KEY_SQL.day} day, e.model model, ${key} key, ${sums} ${calls} GROUP BY 1, 2, 3`).all(params) as (Agg & { day: string; model: string | null })[];
  const total = sumOf(cells);
  const cli = cliCallShares(db, 'FROM events e JOIN sessions s ON s.num = e.session_num', where.join(' AND '), params, key, KEY_SQL.day);
  const sharesBy = (pick: (s: CliCallShare) => string) => {
    const m = new Map<string, CliCallShare[]>();
    for (const s of cli.shares) {
      const k = pick(s);
      const list = m.get(k);
      if (list) list.push(s);
      else m.set(k, [s]);
    }
    return m;
  };
  const keyOf = (k: string | null) => (k === null ? '\u0000null' : `=${k}`);
  const sharesByKey = sharesBy((s) => keyOf(s.key));
  const sharesByDay = sharesBy((s) => `${s.day}\u0000${keyOf(s.model)}`);
  // Requests by the rows' key (one pass; their total is the sum). A request has no model: per model, requests are 0
  // and only the totals count them.
  const requestRows = db.prepare(requestsBy(key)).all(params) as { key: string | null; n: number }[];
  const requests = requestRows.reduce((n, r) => n + r.n, 0);
  const reqByKey = new Map<string | null, number>();
  if (q.by !== 'model') for (const r of requestRows) reqByKey.set(r.key, r.n);
  const byKey = groupSums(cells, (c) => c.key);
  const keys = new Set<string | null>([...byKey.keys(), ...reqByKey.keys()]);
  const rows: UsageRow[] = [...keys].map((k) => ({
    key: k,
    ...totalsOf(byKey.get(k)?.sums ?? sumOf([]), reqByKey.get(k) ?? 0, estimateOf(sharesByKey.get(keyOf(k)) ?? [])),
  }));
  rows.sort(q.by === 'day' ? (a, b) => String(b.key).localeCompare(String(a.key)) : (a, b) => b.credits - a.credits || b.modelCalls - a.modelCalls || String(a.key).localeCompare(String(b.key)));

  const daily = [...groupSums(cells, (c) => `${c.day}\u0000${keyOf(c.model)}`).values()]
    .map(({ cell, sums }) => ({ day: cell.day, model: cell.model, d: sums }))
    // as SQLite's ORDER BY day, model: a null model first
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.model === b.model ? 0 : a.model === null ? -1 : b.model === null ? 1 : a.model < b.model ? -1 : 1))
    .map(({ day, model, d }) => {
      const est = estimateOf(sharesByDay.get(`${day}\u0000${keyOf(model)}`) ?? []);
      return {
        day,
        model,
        credits: creditsOf(d.nano + est.nano)!,
        tokensIn: d.tin + est.tin,
        tokensOut: d.tout,
        modelCalls: d.calls,
        estimated: est.estTin > 0 || est.estTcached > 0 || est.estNano > 0,
      };
    });

  return { window: q.window, by: q.by, totals: totalsOf(total, requests, estimateOf(cli.shares, cli.sessionsWithoutUsage)), rows, daily };
}
