import type Database from 'better-sqlite3';
import type { LatencyRow, LatencyStatsParams, LatencyStatsResponse } from '../../shared/api/triage';
import { cachedResult } from './cache';
import { selectCalls } from './calls';
import { triageModel, type TriageModel } from './model';
import { PERCENTILE_DEFINITION, percentilesInPlace } from './percentile';

/**
 * GET /api/stats/latency: count, error rate, exact nearest-rank duration and TTFT percentiles, tokens and
 * output speed per model / tool / hook / subagent / repository, over a window. Computed from the triage
 * model's columns (no table scan) and cached by index version.
 */
export function latencyStats(db: Database.Database, q: LatencyStatsParams, now = Date.now()): LatencyStatsResponse {
  const m = triageModel(db, now);
  return cachedResult(m, 'latency', q, now, () => computeLatency(m, q, now));
}

export function computeLatency(m: TriageModel, q: LatencyStatsParams, now: number): LatencyStatsResponse {
  const sel = selectCalls(m, { by: q.by, type: q.type, repo: q.repo, source: q.source, window: q.window }, now);
  const G = sel.keys.length;
  const count = new Float64Array(G);
  const ttftCount = new Float64Array(G);
  for (let k = 0; k < sel.rows.length; k++) {
    const g = sel.group[k];
    count[g]++;
    const l = m.cLlm.get(sel.rows[k]);
    if (l >= 0 && !Number.isNaN(m.lTtft.get(l))) ttftCount[g]++;
  }
  // One buffer per measure, each group a contiguous slice of it, filled in a second pass.
  const start = new Float64Array(G + 1);
  const tStart = new Float64Array(G + 1);
  for (let g = 0; g < G; g++) {
    start[g + 1] = start[g] + count[g];
    tStart[g + 1] = tStart[g] + ttftCount[g];
  }
  const durs = new Float64Array(start[G]);
  const ttfts = new Float64Array(tStart[G]);
  const fill = start.slice(0, G);
  const tFill = tStart.slice(0, G);
  const errors = new Float64Array(G);
  const tin = new Float64Array(G);
  const tout = new Float64Array(G);
  const tcached = new Float64Array(G);
  // how many calls reported each figure: a total over none is unknown, not 0
  const inN = new Uint32Array(G);
  const outN = new Uint32Array(G);
  const cachedN = new Uint32Array(G);
  const genTokens = new Float64Array(G);
  const genMs = new Float64Array(G);
  for (let k = 0; k < sel.rows.length; k++) {
    const i = sel.rows[k];
    const g = sel.group[k];
    const dur = m.cDur.get(i);
    durs[fill[g]++] = dur;
    errors[g] += m.cStatus.get(i);
    const l = m.cLlm.get(i);
    if (l < 0) continue;
    const ttft = m.lTtft.get(l);
    const out = m.lOut.get(l);
    if (!Number.isNaN(ttft)) ttfts[tFill[g]++] = ttft;
    const tokensIn = m.lIn.get(l);
    const cached = m.lCached.get(l);
    if (!Number.isNaN(tokensIn)) {
      tin[g] += tokensIn;
      inN[g]++;
    }
    if (!Number.isNaN(out)) {
      tout[g] += out;
      outN[g]++;
    }
    if (!Number.isNaN(cached)) {
      tcached[g] += cached;
      cachedN[g]++;
    }
    if (!Number.isNaN(out) && !Number.isNaN(ttft) && dur > ttft) {
      genTokens[g] += out;
      genMs[g] += dur - ttft;
    }
  }
  const rows: LatencyRow[] = [];
  for (let g = 0; g < G; g++) {
    const n = count[g];
    rows.push({
      key: sel.keys[g],
      count: n,
      errors: errors[g],
      errorRate: n === 0 ? 0 : errors[g] / n,
      dur: percentilesInPlace(durs, start[g], start[g + 1]),
      ttft: percentilesInPlace(ttfts, tStart[g], tStart[g + 1]),
      ttftCount: ttftCount[g],
      tokensIn: inN[g] > 0 ? tin[g] : null,
      tokensInCount: inN[g],
      tokensOut: outN[g] > 0 ? tout[g] : null,
      tokensOutCount: outN[g],
      tokensCached: cachedN[g] > 0 ? tcached[g] : null,
      tokensCachedCount: cachedN[g],
      outputTokensPerSec: genMs[g] > 0 ? Math.round((genTokens[g] / (genMs[g] / 1000)) * 10) / 10 : null,
    });
  }
  rows.sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  return { by: q.by, window: q.window, rows, percentileDefinition: PERCENTILE_DEFINITION, version: m.lastId };
}
