import type Database from 'better-sqlite3';

/**
 * One line of VS Code's `User/agentHostUsage/<sessionId>.jsonl` (INTEROP §3): a CLI model call's usage, which
 * the CLI's own events.jsonl never holds. `totalNanoAiu` is a running total: a call's credits are its rise.
 */
export interface HostUsageCall {
  turnId: string | null;
  model: string | null;
  apiCallId: string | null;
  agentId: string | null;
  inputTokens: number;
  cacheReadTokens: number;
  /** null when the line carries no running total */
  creditsNano: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The calls of a side file, in order; lines that are not objects (cut, garbage) are skipped. */
export function parseHostUsage(text: string): HostUsageCall[] {
  const out: HostUsageCall[] = [];
  let running: number | null = null;
  for (const l of text.split('\n')) {
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      continue;
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    const total = num(o.totalNanoAiu);
    out.push({
      turnId: str(o.turnId),
      model: str(o.model),
      apiCallId: str(o.apiCallId),
      agentId: str(o.agentId),
      inputTokens: num(o.inputTokens) ?? 0,
      cacheReadTokens: num(o.cacheReadTokens) ?? 0,
      creditsNano: total === null ? null : Math.max(0, total - (running ?? 0)),
    });
    if (total !== null) running = total;
  }
  return out;
}

/** The side file of a session, from the archive (companions), or null when VS Code wrote none. */
export function makeHostUsageReader(db: Database.Database) {
  const st = db.prepare("SELECT content FROM companions WHERE session_id = ? AND kind = 'agent_host_usage' ORDER BY id DESC LIMIT 1");
  return (sessionId: string): HostUsageCall[] | null => {
    const row = st.get(sessionId) as { content: string | null } | undefined;
    return row?.content ? parseHostUsage(row.content) : null;
  };
}

/** Session totals of a side file. */
export function hostUsageTotals(calls: readonly HostUsageCall[]): { inputTokens: number; cacheReadTokens: number; creditsNano: number | null } {
  let inputTokens = 0;
  let cacheReadTokens = 0;
  let creditsNano: number | null = null;
  for (const c of calls) {
    inputTokens += c.inputTokens;
    cacheReadTokens += c.cacheReadTokens;
    if (c.creditsNano !== null) creditsNano = (creditsNano ?? 0) + c.creditsNano;
  }
  return { inputTokens, cacheReadTokens, creditsNano };
}

/**
 * Pairs a session's model calls (assistant.message: apiCallId, agentId, turnId, model) with the side file's lines:
 * by apiCallId when both have one (v2), else the n-th call of the same agent, turn and model.
 */
export function matchHostUsage<T extends { apiCallId: string | null; agentId: string | null; turnId: string | null; model: string | null }>(
  calls: readonly T[],
  usage: readonly HostUsageCall[],
): Map<T, HostUsageCall> {
  const byApi = new Map<string, HostUsageCall>();
  const queues = new Map<string, HostUsageCall[]>();
  const keyOf = (x: { agentId: string | null; turnId: string | null; model: string | null }) => `${x.agentId ?? ''}\u0000${x.turnId ?? ''}\u0000${x.model ?? ''}`;
  for (const u of usage) {
    if (u.apiCallId !== null) byApi.set(u.apiCallId, u);
    const k = keyOf(u);
    const q = queues.get(k);
    if (q) q.push(u);
    else queues.set(k, [u]);
  }
  const used = new Set<HostUsageCall>();
  const out = new Map<T, HostUsageCall>();
  for (const c of calls) {
    let u = c.apiCallId !== null ? byApi.get(c.apiCallId) : undefined;
    if (u === undefined || used.has(u)) {
      const q = queues.get(keyOf(c)) ?? [];
      while (q.length > 0 && used.has(q[0])) q.shift();
      u = q.shift();
    }
    if (u !== undefined) {
      used.add(u);
      out.set(c, u);
    }
  }
  return out;
}
