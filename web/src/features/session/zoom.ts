// The waterfall's zoom: a range [a, b] of 0..1 positions on the session's axis (null = all of it). Pure steps,
// shared by the keys, the wheel, double-click and the landing on a linked call.
import { axisX, type TimeAxis } from '../../../../shared/api';

export type Zoom = readonly [number, number];

/** Narrowest range: the URL keeps 7 decimals, so this is still exact to a hundredth of it. */
export const MIN_WIDTH = 1e-5;
/** One zoom key press (Jaeger zooms by about this much; Shift for a large step). */
export const ZOOM_STEP = 1.5;
export const ZOOM_STEP_LARGE = 4;
/** One pan key press moves the view by this share of its width (Shift: a whole view). */
export const PAN_STEP = 0.2;
/** Room left on each side of a range zoomed to, as a share of the range. */
const PAD = 0.05;
/** A linked call narrower than this share of its request is shown in a window around it inside the request. */
const MIN_SHARE = 1 / 8;

// Within this of the whole axis is the whole axis: in then out by one step leaves 0.9999999… after rounding.
const WHOLE = 1 - MIN_WIDTH / 100;

const clampRange = (a: number, w: number): [number, number] | null => {
  if (w >= WHOLE) return null;
  const start = Math.max(0, Math.min(1 - w, a));
  return [start, start + w];
};

/**
 * Zoom by `factor` (>1 out, <1 in) keeping the point at `anchor` (0..1 across the view; the pointer, or the
 * middle) where it is. Null when the whole axis shows.
 */
export function zoomBy(zoom: Zoom | null, factor: number, anchor = 0.5): [number, number] | null {
  const [a, b] = zoom ?? [0, 1];
  const w = b - a;
  const next = Math.max(MIN_WIDTH, Math.min(1, w * factor));
  const p = a + Math.max(0, Math.min(1, anchor)) * w;
  return clampRange(p - (p - a) * (next / w), next);
}

/** Move the view by `share` of its width (negative: left). */
export function panBy(zoom: Zoom | null, share: number): [number, number] | null {
  if (!zoom) return null;
  const w = zoom[1] - zoom[0];
  return clampRange(zoom[0] + share * w, w);
}

/** The range showing times t0..t1, with a little room on each side. */
export function zoomToTimes(axis: TimeAxis, t0: number, t1: number): [number, number] | null {
  const x0 = axisX(axis, t0);
  const x1 = axisX(axis, Math.max(t0, t1));
  const w = Math.max(MIN_WIDTH, (x1 - x0) * (1 + 2 * PAD));
  return clampRange((x0 + x1) / 2 - w / 2, w);
}

/**
 * Where a linked call lands: its request zoomed to, unless the call would then be a sliver (under an eighth of
 * the view); then a window five times the call's width around it, kept inside the request where it fits.
 */
export function landingZoom(axis: TimeAxis, request: { start: number; end: number }, call: { start: number; end: number } | null): [number, number] | null {
  const whole = zoomToTimes(axis, request.start, request.end);
  if (!call) return whole;
  const r0 = axisX(axis, request.start);
  const r1 = axisX(axis, request.end);
  const c0 = axisX(axis, call.start);
  const c1 = axisX(axis, Math.max(call.start, call.end));
  const view = whole ? whole[1] - whole[0] : 1;
  if (c1 - c0 >= view * MIN_SHARE) return whole;
  const w = Math.max(MIN_WIDTH, (c1 - c0) * 5);
  const centred = (c0 + c1) / 2 - w / 2;
  // inside the request with the same room as a zoom to it, so a call that ends the request is not cut at the edge
  const [p0, p1] = whole ?? [r0, r1];
  const inside = w <= p1 - p0 ? Math.max(p0, Math.min(p1 - w, centred)) : centred;
  return clampRange(inside, w);
}

/** How much one wheel event zooms: proportional to its distance, so a trackpad's many small events feel smooth. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  // deltaMode 1 = lines, 2 = pages; 0 = pixels
  const px = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.exp(Math.max(-300, Math.min(300, px)) * 0.0025);
}
