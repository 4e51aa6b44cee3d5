import type Database from 'better-sqlite3';
import type { ChartParams, HistogramResponse, ScatterParams, ScatterResponse, TimeseriesParams, TimeseriesResponse } from '../../shared/api/triage';
import { cachedResult } from './cache';
import { selectCalls } from './calls';
import { triageModel, type TriageModel } from './model';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MAX_POINTS = 1000;

/**
 * Upper bounds of the duration histogram's buckets: 1-2-5 steps from 1 ms to 1,000 s, so equal widths on a
 * log axis and round labels. Bucket i is (edge[i-1], edge[i]]; the first is [0, 1] so instant calls count.
 */
export const HISTOGRAM_EDGES: number[] = (() => {
  const e: number[] = [];
  for (let p = 1; p <= 1e6; p *= 10) e.push(p, 2 * p, 5 * p);
  return e.filter((x) => x <= 1e6);
})();

function bucketOf(dur: number): number {
  // binary search: the first edge >= dur; above the last edge: one open bucket
  let lo = 0;
  let hi = HISTOGRAM_EDGES.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (HISTOGRAM_EDGES[mid] >= dur) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** GET /api/stats/histogram */
export function durationHistogram(db: Database.Database, q: ChartParams, now = Date.now()): HistogramResponse {
  const m = triageModel(db, now);
  return cachedResult(m, 'histogram', q, now, () => computeHistogram(m, q, now));
}

export function computeHistogram(m: TriageModel, q: ChartParams, now: number): HistogramResponse {
  const sel = selectCalls(m, q, now);
  const nb = HISTOGRAM_EDGES.length + 1;
  const counts = new Float64Array(nb);
  const errors = new Float64Array(nb);
  for (let k = 0; k < sel.rows.length; k++) {
    const i = sel.rows[k];
    const b = bucketOf(m.cDur.get(i));
    counts[b]++;
    errors[b] += m.cStatus.get(i);
  }
  let first = 0;
  while (first < nb && counts[first] === 0) first++;
  let last = nb - 1;
  while (last > first && counts[last] === 0) last--;
  const buckets: HistogramResponse['buckets'] = [];
  for (let b = first; b <= last && b < nb; b++) {
    const lo = b === 0 ? -1 : HISTOGRAM_EDGES[b - 1];
    const hi = b < HISTOGRAM_EDGES.length ? HISTOGRAM_EDGES[b] : Number.MAX_SAFE_INTEGER;
    buckets.push({ lo, hi, count: counts[b], errors: errors[b] });
  }
  return { buckets, total: sel.rows.length };
}

/** GET /api/stats/timeseries: buckets aligned to UTC hours or days, empty ones included. */
export function callTimeseries(db: Database.Database, q: TimeseriesParams, now = Date.now()): TimeseriesResponse {
  const m = triageModel(db, now);
  return cachedResult(m, 'timeseries', q, now, () => computeTimeseries(m, q, now));
}

export function computeTimeseries(m: TriageModel, q: TimeseriesParams, now: number): TimeseriesResponse {
  const sel = selectCalls(m, q, now);
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < sel.rows.length; k++) {
    const t = m.cTs.get(sel.rows[k]);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  let interval: 'hour' | 'day' = q.interval === 'auto' ? (max - min <= 3 * DAY ? 'hour' : 'day') : q.interval;
  if (interval === 'hour' && (max - min) / HOUR > MAX_POINTS) interval = 'day';
  const bucketMs = interval === 'hour' ? HOUR : DAY;
  if (min === Infinity) return { interval, bucketMs, points: [] };
  const from = Math.floor(min / bucketMs) * bucketMs;
  const n = Math.min(Math.floor((max - from) / bucketMs) + 1, 100_000);
  const calls = new Float64Array(n);
  const errors = new Float64Array(n);
  for (let k = 0; k < sel.rows.length; k++) {
    const i = sel.rows[k];
    const t = m.cTs.get(i);
    if (Number.isNaN(t)) continue;
    const b = Math.min(n - 1, Math.floor((t - from) / bucketMs));
    calls[b]++;
    errors[b] += m.cStatus.get(i);
  }
  const points = Array.from({ length: n }, (_, b) => ({ t: from + b * bucketMs, calls: calls[b], errors: errors[b] }));
  return { interval, bucketMs, points };
}

/** GET /api/stats/ttft-scatter: model calls with a ttft and input tokens, every k-th when there are many. */
export function ttftScatter(db: Database.Database, q: ScatterParams, now = Date.now()): ScatterResponse {
  const m = triageModel(db, now);
  return cachedResult(m, 'scatter', q, now, () => computeScatter(m, q, now));
}

export function computeScatter(m: TriageModel, q: ScatterParams, now: number): ScatterResponse {
  const sel = selectCalls(m, q.by === 'model' || q.by === 'repository' ? { ...q, type: 'llm_request' } : { ...q, by: 'model', key: undefined }, now);
  const usable: number[] = [];
  for (let k = 0; k < sel.rows.length; k++) {
    const i = sel.rows[k];
    const l = m.cLlm.get(i);
    if (l >= 0 && !Number.isNaN(m.lTtft.get(l)) && !Number.isNaN(m.lIn.get(l))) usable.push(i);
  }
  const step = Math.max(1, usable.length / q.limit);
  const points: ScatterResponse['points'] = [];
  for (let x = 0; x < usable.length && points.length < q.limit; x += step) {
    const i = usable[Math.floor(x)];
    const l = m.cLlm.get(i);
    points.push({
      eventId: m.lId.get(l),
      sessionId: m.sessions.get(m.cSession.get(i))?.id ?? '',
      tokensIn: m.lIn.get(l),
      ttft: m.lTtft.get(l),
      dur: m.cDur.get(i),
      model: m.strings[m.cSubject.get(i)],
    });
  }
  return { points, total: usable.length };
}
