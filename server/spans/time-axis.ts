import type { TimeAxis } from '../../shared/api';
import { axisX } from '../../shared/time-axis';
import { sortedOrder } from './sort-order';

export interface AxisOptions {
  /** a gap shorter than this is never squeezed */
  minGapMs?: number;
  /** nor one shorter than this share of the whole session */
  minGapFraction?: number;
  /** the width one squeezed gap gets (share of the axis) */
  idleShare?: number;
  /** the most all squeezed gaps together may take */
  maxIdleShare?: number;
}

const DEFAULTS: Required<AxisOptions> = { minGapMs: 60_000, minGapFraction: 0.002, idleShare: 0.03, maxIdleShare: 0.25 };

/**
 * The session's time axis with idle time squeezed. Spans (start, end) are merged; a stretch where nothing
 * runs, at least `minGapMs` and `minGapFraction` of the session long (the user away for an hour), becomes an
 * idle segment of fixed small width, and the active stretches share the rest in proportion to their length.
 * So bars stay readable however long the user was away. Null when no span has a time.
 */
export function buildTimeAxis(starts: ArrayLike<number>, ends: ArrayLike<number>, options: AxisOptions = {}): TimeAxis | null {
  const o = { ...DEFAULTS, ...options };
  const n = starts.length;
  if (n === 0) return null;
  const order = sortedOrder(starts);
  const start = starts[order[0]];
  let end = start;
  for (let i = 0; i < n; i++) if (ends[i] > end) end = ends[i];
  if (end === start) end = start + 1;
  const threshold = Math.max(o.minGapMs, o.minGapFraction * (end - start));

  const gaps: [number, number][] = [];
  let reach = Math.max(starts[order[0]], ends[order[0]]);
  for (let k = 1; k < n; k++) {
    const i = order[k];
    if (starts[i] - reach >= threshold) gaps.push([reach, starts[i]]);
    if (ends[i] > reach) reach = ends[i];
    if (starts[i] > reach) reach = starts[i];
  }
  if (gaps.length === 0) return { start, end, segments: [{ t0: start, t1: end, x0: 0, x1: 1, idle: false }] };

  const active: [number, number][] = [];
  let from = start;
  for (const [g0, g1] of gaps) {
    active.push([from, g0]);
    from = g1;
  }
  active.push([from, end]);
  const activeTotal = active.reduce((sum, [a, b]) => sum + (b - a), 0);
  const idleEach = Math.min(o.idleShare, o.maxIdleShare / gaps.length);
  const activeShare = 1 - idleEach * gaps.length;
  const segments: TimeAxis['segments'] = [];
  let x = 0;
  for (let k = 0; k < active.length; k++) {
    const [a, b] = active[k];
    const w = activeTotal > 0 ? (activeShare * (b - a)) / activeTotal : activeShare / active.length;
    segments.push({ t0: a, t1: b, x0: x, x1: x + w, idle: false });
    x += w;
    if (k < gaps.length) {
      segments.push({ t0: gaps[k][0], t1: gaps[k][1], x0: x, x1: x + idleEach, idle: true });
      x += idleEach;
    }
  }
  segments[segments.length - 1].x1 = 1; // rounding
  return { start, end, segments };
}

/** Events started per slice of the axis (the minimap's density), and how many of them failed. */
export function axisHistogram(axis: TimeAxis | null, starts: ArrayLike<number>, failed: ArrayLike<number>, bins = 240): { bins: number[]; errors: number[] } {
  const counts = new Array<number>(bins).fill(0);
  const errors = new Array<number>(bins).fill(0);
  if (axis === null) return { bins: counts, errors };
  for (let i = 0; i < starts.length; i++) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(axisX(axis, starts[i]) * bins)));
    counts[b]++;
    if (failed[i]) errors[b]++;
  }
  return { bins: counts, errors };
}
