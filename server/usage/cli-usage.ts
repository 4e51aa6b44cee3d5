import type Database from 'better-sqlite3';
import { rawLines } from '../db/raw-lines';
import { makeHostUsageReader, matchHostUsage, type HostUsageCall } from '../ingest/cli/agent-host-usage';
import { makeShutdownReader, type ModelTotals } from '../ingest/cli/cli-session-facts';

/** One Copilot CLI model call's estimated share of its session's shutdown totals (INTEROP §3). */
export interface CliCallShare {
  key: string | null;
  day: string;
  model: string | null;
  tokensIn: number;
  tokensCached: number;
  /** null when the shutdown carries no credits */
  creditsNano: number | null;
  /** a split of session totals (true), or the call's own line in VS Code's agentHostUsage side file (false) */
  estimated: boolean;
}

interface CallRow {
  id: number;
  session_id: string;
  session_num: number;
  model: string | null;
  tokens_out: number | null;
  key: string | null;
  day: string;
  usage_complete: number;
}

interface Weights {
  calls: number;
  out: number;
}

/**
 * Per call, VS Code's agentHostUsage side file is preferred when the session has one (exact, not an estimate).
 * Otherwise: the CLI writes input, cache and credits only as `session.shutdown` totals per model; per call there are only
 * output tokens. A call's share of its model's totals is its share of that model's output tokens in the session
 * (evenly when none has any); a model the totals name but no call does is split over the calls of models the
 * totals do not name. These are estimates: the usage API says so (`estimated`, `…Estimated`). A session without a
 * shutdown (running, crashed) gets nothing and is counted in `sessionsWithoutUsage`.
 */
export function cliCallShares(db: Database.Database, from: string, where: string, params: Record<string, unknown>, keySql: string, daySql: string): { shares: CliCallShare[]; sessionsWithoutUsage: number } {
  const rows = db
    .prepare(`SELECT e.id, s.id session_id, e.session_num, e.model, e.tokens_out, ${keySql} key, ${daySql} day, s.usage_complete ${from} WHERE e.type = 'llm_request' AND s.source = 'cli' AND ${where}`)
    .all(params) as CallRow[];
  const weightsOf = db.prepare("SELECT model, count(*) calls, sum(coalesce(tokens_out, 0)) out FROM events WHERE session_num = ? AND type = 'llm_request' AND dup = 0 GROUP BY model");
  const shutdownOf = makeShutdownReader(db);
  const hostUsageOf = makeHostUsageReader(db);
  const sessionCalls = db.prepare("SELECT id FROM events WHERE session_num = ? AND type = 'llm_request' AND dup = 0 ORDER BY id");
  const raw = rawLines(db);
  /** per session with a side file: each model call's own usage line (preferred over any split) */
  const exact = new Map<number, Map<number, HostUsageCall> | null>();
  const exactOf = (r: CallRow): Map<number, HostUsageCall> | null => {
    let m = exact.get(r.session_num);
    if (m !== undefined) return m;
    const usage = hostUsageOf(r.session_id);
    if (usage === null) m = null;
    else {
      const calls = (sessionCalls.all(r.session_num) as { id: number }[]).map(({ id }) => {
        const line = (raw.json(id) ?? {}) as Record<string, unknown>;
        const d = (line.data ?? {}) as Record<string, unknown>;
        const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
        return { id, apiCallId: s(d.apiCallId), agentId: s(line.agentId), turnId: s(d.turnId), model: s(d.model) };
      });
      m = new Map([...matchHostUsage(calls, usage)].map(([c, u]) => [c.id, u]));
    }
    exact.set(r.session_num, m);
    return m;
  };
  const sessions = new Map<number, { byModel: Map<string, ModelTotals>; weights: Map<string | null, Weights>; rest: ModelTotals | null; restWeights: Weights } | null>();
  const incomplete = new Set<number>();
  const shares: CliCallShare[] = [];
  for (const r of rows) {
    const own = exactOf(r);
    if (own !== null) {
      const u = own.get(r.id);
      if (u) shares.push({ key: r.key, day: r.day, model: r.model, tokensIn: u.inputTokens, tokensCached: u.cacheReadTokens, creditsNano: u.creditsNano, estimated: false });
      continue;
    }
    if (r.usage_complete === 0) {
      incomplete.add(r.session_num);
      continue;
    }
    let s = sessions.get(r.session_num);
    if (s === undefined) {
      const shutdown = shutdownOf(r.session_num);
      if (shutdown === null) s = null;
      else {
        const weights = new Map<string | null, Weights>();
        for (const w of weightsOf.all(r.session_num) as { model: string | null; calls: number; out: number }[]) weights.set(w.model, { calls: w.calls, out: w.out });
        // totals of models no call names, for the calls of models the totals do not name
        let rest: ModelTotals | null = null;
        for (const [model, t] of shutdown.byModel) {
          if (weights.has(model)) continue;
          rest ??= { inputTokens: 0, cacheReadTokens: 0, creditsNano: null };
          rest.inputTokens += t.inputTokens;
          rest.cacheReadTokens += t.cacheReadTokens;
          if (t.creditsNano !== null) rest.creditsNano = (rest.creditsNano ?? 0) + t.creditsNano;
        }
        const restWeights = { calls: 0, out: 0 };
        for (const [model, w] of weights) {
          if (model !== null && shutdown.byModel.has(model)) continue;
          restWeights.calls += w.calls;
          restWeights.out += w.out;
        }
        s = { byModel: shutdown.byModel, weights, rest, restWeights };
      }
      sessions.set(r.session_num, s);
    }
    if (s === null) continue;
    const ofModel = r.model !== null ? s.byModel.get(r.model) : undefined;
    const totals = ofModel ?? s.rest;
    const w = ofModel ? s.weights.get(r.model) : s.restWeights;
    if (!totals || !w || w.calls === 0) continue;
    const share = w.out > 0 ? (r.tokens_out ?? 0) / w.out : 1 / w.calls;
    shares.push({
      key: r.key,
      day: r.day,
      model: r.model,
      tokensIn: totals.inputTokens * share,
      tokensCached: totals.cacheReadTokens * share,
      creditsNano: totals.creditsNano === null ? null : totals.creditsNano * share,
      estimated: true,
    });
  }
  return { shares, sessionsWithoutUsage: incomplete.size };
}
