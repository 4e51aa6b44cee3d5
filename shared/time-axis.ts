// The span timeline's axis arithmetic, shared by the server (which places spans on it) and the waterfall. Apart from
// the HTTP contract (shared/api/spans.ts re-exports it) so that the threads which place spans without serving HTTP load
// without zod.

/** What the arithmetic reads of an axis (shared/api/spans.ts's TimeAxis): its start and its segments. */
export interface AxisShape {
  start: number;
  segments: readonly { t0: number; t1: number; x0: number; x1: number }[];
}

/** Position 0..1 of time `t` on the axis (clamped to its ends). The server and the waterfall share this. */
export function axisX(axis: AxisShape, t: number): number {
  const segs = axis.segments;
  if (segs.length === 0) return 0;
  if (t <= segs[0].t0) return segs[0].x0;
  const last = segs[segs.length - 1];
  if (t >= last.t1) return last.x1;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  const s = segs[lo];
  return s.t1 === s.t0 ? s.x0 : s.x0 + ((t - s.t0) / (s.t1 - s.t0)) * (s.x1 - s.x0);
}

/** The time at position `x` (0..1) of the axis: the inverse of axisX. */
export function axisTime(axis: AxisShape, x: number): number {
  const segs = axis.segments;
  if (segs.length === 0) return axis.start;
  if (x <= segs[0].x0) return segs[0].t0;
  const last = segs[segs.length - 1];
  if (x >= last.x1) return last.t1;
  let lo = 0;
  let hi = segs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (segs[mid].x0 <= x) lo = mid;
    else hi = mid - 1;
  }
  const s = segs[lo];
  return s.x1 === s.x0 ? s.t0 : s.t0 + ((x - s.x0) / (s.x1 - s.x0)) * (s.t1 - s.t0);
}
