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
  const requestsBy = (key: string | null) =>
    key === null
      ? `SELECT count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'user_message' AND ${where.join(' AND ')}`
      : `SELECT ${key} key, count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE e.type = 'user_message' AND ${where.join(' AND ')} GROUP BY 1`;

  const total = db.prepare(`SELECT ${sums} ${calls}`).get(params) as Agg;
  const key = KEY_SQL[q.by];
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
  const requests = (db.prepare(requestsBy(null)).get(params) as { n: number }).n;
  const groups = db.prepare(`SELECT ${key} key, ${sums} ${calls} GROUP BY 1`).all(params) as Agg[];
  // A request has no model: per model, requests are 0 and only the totals count them.
  const reqByKey = new Map<string | null, number>();
  if (q.by !== 'model') for (const r of db.prepare(requestsBy(key)).all(params) as { key: string | null; n: number }[]) reqByKey.set(r.key, r.n);
  const keys = new Set<string | null>([...groups.map((g) => g.key), ...reqByKey.keys()]);
  const byKey = new Map(groups.map((g) => [g.key, g]));
  const rows: UsageRow[] = [...keys].map((k) => ({
    key: k,
    ...totalsOf(byKey.get(k) ?? { calls: 0, tin: 0, tout: 0, tcached: 0, nano: 0, credited: 0 }, reqByKey.get(k) ?? 0, estimateOf(sharesByKey.get(keyOf(k)) ?? [])),
  }));
  rows.sort(q.by === 'day' ? (a, b) => String(b.key).localeCompare(String(a.key)) : (a, b) => b.credits - a.credits || b.modelCalls - a.modelCalls || String(a.key).localeCompare(String(b.key)));

  const daily = (
    db.prepare(`SELECT ${KEY_SQL.day} day, e.model model, sum(e.credits_nano) nano, sum(e.tokens_in) tin, sum(e.tokens_out) tout, count(*) calls ${calls} GROUP BY 1, 2 ORDER BY 1, 2`).all(params) as {
      day: string;
      model: string | null;
      nano: number | null;
      tin: number | null;
      tout: number | null;
      calls: number;
    }[]
  ).map((d) => {
    const est = estimateOf(sharesByDay.get(`${d.day}\u0000${keyOf(d.model)}`) ?? []);
    return {
      day: d.day,
      model: d.model,
      credits: creditsOf((d.nano ?? 0) + est.nano)!,
      tokensIn: (d.tin ?? 0) + est.tin,
      tokensOut: d.tout ?? 0,
      modelCalls: d.calls,
      estimated: est.estTin > 0 || est.estTcached > 0 || est.estNano > 0,
    };
  });

  return { window: q.window, by: q.by, totals: totalsOf(total, requests, estimateOf(cli.shares, cli.sessionsWithoutUsage)), rows, daily };
}
