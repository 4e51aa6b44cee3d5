// The waterfall's ruler on the session's squeezed time axis (TimeAxis from the server): tick positions and
// labels for the zoomed range, and the idle bands. Pure functions; the components only draw them.
import { axisTime, axisX, type TimeAxis } from '../../../../shared/api';
import { formatDuration } from '../../ui/format';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

/** Steps a ruler may use: round numbers of ms, seconds, minutes, hours, days. */
const STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500,
  S, 2 * S, 5 * S, 10 * S, 15 * S, 30 * S,
  M, 2 * M, 5 * M, 10 * M, 15 * M, 30 * M,
  H, 2 * H, 3 * H, 6 * H, 12 * H,
  D, 2 * D, 7 * D, 14 * D, 30 * D,
];

/** The smallest round step at least `ms` long. */
export function niceStep(ms: number): number {
  for (const s of STEPS) if (s >= ms) return s;
  return Math.ceil(ms / (30 * D)) * 30 * D;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A ruler label: time since the session started, only as precise as the step between ticks. */
export function formatOffset(ms: number, step: number): string {
  if (ms <= 0) return '0';
  if (step < S) {
    const decimals = step < 10 ? 3 : step < 100 ? 2 : 1;
    if (ms < M) return `${(ms / S).toFixed(decimals)}s`;
    return `${Math.floor(ms / M)}m ${((ms % M) / S).toFixed(decimals)}s`;
  }
  if (step < M) {
    const s = Math.round(ms / S);
    if (s < 60) return `${s}s`;
    if (s < 3600) return `${Math.floor(s / 60)}m ${pad(s % 60)}s`;
    return `${Math.floor(s / 3600)}h ${pad(Math.floor(s / 60) % 60)}m ${pad(s % 60)}s`;
  }
  if (step < H) {
    const m = Math.round(ms / M);
    return m < 60 ? `${m}m` : `${Math.floor(m / 60)}h ${pad(m % 60)}m`;
  }
  const h = Math.round(ms / H);
  return h < 24 ? `${h}h` : `${Math.floor(h / 24)}d ${pad(h % 24)}h`;
}

export interface Tick {
  /** 0..1 across the visible range */
  x: number;
  t: number;
  label: string;
}

export interface IdleBand {
  x0: number;
  x1: number;
  ms: number;
}

const toView = (x: number, zoom: readonly [number, number]) => (x - zoom[0]) / (zoom[1] - zoom[0]);

/**
 * Ticks for the visible range `zoom` (0..1 positions on the axis). The axis is piecewise (idle gaps squeezed),
 * so each visible active stretch gets its own round step, from the share of the ruler it occupies: a busy
 * minute drawn wide gets ticks every few seconds, a short burst between two gaps only one or two. Ticks sit at
 * round offsets from the session start and never closer than a fraction of the ruler.
 */
export function rulerTicks(axis: TimeAxis, zoom: readonly [number, number], targetCount: number): { step: number; ticks: Tick[] } {
  const target = Math.max(1, targetCount);
  const viewWidth = zoom[1] - zoom[0];
  const minGap = 0.6 / target;
  const ticks: Tick[] = [];
  let finest = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const s of axis.segments) {
    if (s.idle || s.x1 <= zoom[0] || s.x0 >= zoom[1]) continue;
    const x0 = Math.max(s.x0, zoom[0]);
    const x1 = Math.min(s.x1, zoom[1]);
    const t0 = axisTime(axis, x0);
    const t1 = axisTime(axis, x1);
    const share = ((x1 - x0) / viewWidth) * target;
    if (share < 1 && t0 > axis.start) {
      // Too narrow for a scale of its own: one tick where it starts, for orientation.
      const x = toView(x0, zoom);
      if (x - last >= minGap) {
        ticks.push({ x, t: t0, label: formatOffset(t0 - axis.start, t0 - axis.start < 3_600_000 ? 1000 : 60_000) });
        last = x;
      }
      continue;
    }
    const step = niceStep(Math.max(1, (t1 - t0) / Math.max(1, share)));
    finest = Math.min(finest, step);
    for (let k = Math.ceil((t0 - axis.start) / step); ; k++) {
      const t = axis.start + k * step;
      if (t > t1 || ticks.length >= 400) break;
      const x = toView(axisX(axis, t), zoom);
      if (x < -1e-9 || x > 1 + 1e-9 || x - last < minGap) continue;
      ticks.push({ x, t, label: formatOffset(t - axis.start, step) });
      last = x;
    }
  }
  return { step: Number.isFinite(finest) ? finest : niceStep(axis.end - axis.start), ticks };
}

/** The squeezed idle gaps within the visible range, in view positions, with how long each really was. */
export function idleBands(axis: TimeAxis, zoom: readonly [number, number]): IdleBand[] {
  const out: IdleBand[] = [];
  for (const s of axis.segments) {
    if (!s.idle || s.x1 <= zoom[0] || s.x0 >= zoom[1]) continue;
    out.push({ x0: Math.max(0, toView(s.x0, zoom)), x1: Math.min(1, toView(s.x1, zoom)), ms: s.t1 - s.t0 });
  }
  return out;
}

/** Where a span's bar goes in the visible range: left and width as fractions (width may be 0: drawn as a tick). */
export function barGeometry(axis: TimeAxis, zoom: readonly [number, number], start: number, end: number): { left: number; width: number } {
  const a = toView(axisX(axis, start), zoom);
  const b = toView(axisX(axis, Math.max(start, end)), zoom);
  return { left: a, width: Math.max(0, b - a) };
}

/** A label's box on the ruler, in px from its left edge. */
export interface LabelBox {
  text: string;
  left: number;
  right: number;
}

/** How labels sit on the ruler (session.css `.span-tick span`, `.span-idle-band span`): keep the two in step. */
export const TICK_LABEL_OFFSET = 4;
export const IDLE_LABEL_PAD = 3;
/** Room kept between two labels. */
const LABEL_GAP = 6;

/**
 * Which ruler labels to draw at this width so that none overlaps another or runs past the ruler's edge (issue 18:
 * "idle 1m 44s" over "5h 36m 30s"). Tick labels start just right of their tick and come first, left to right; an
 * idle band's label is centred in the band and drawn only where it fits inside the band and clear of every tick
 * label. A tick whose label is dropped keeps its line. `measure` gives a text's width in px (canvas in the
 * browser, an estimate in tests).
 */
export function layoutRulerLabels(
  ticks: readonly Tick[],
  idle: readonly IdleBand[],
  widthPx: number,
  measure: (text: string) => number,
): { ticks: (LabelBox | null)[]; idle: (LabelBox | null)[] } {
  const kept: LabelBox[] = [];
  const clear = (b: LabelBox) => kept.every((k) => b.right + LABEL_GAP <= k.left || b.left >= k.right + LABEL_GAP);
  const tickBoxes = ticks.map((t) => {
    const left = t.x * widthPx + TICK_LABEL_OFFSET;
    const box = { text: t.label, left, right: left + measure(t.label) };
    if (box.left < 0 || box.right > widthPx || !clear(box)) return null;
    kept.push(box);
    return box;
  });
  const idleBoxes = idle.map((b) => {
    const text = idleLabel(b.ms);
    const w = measure(text) + 2 * IDLE_LABEL_PAD;
    const x0 = b.x0 * widthPx;
    const x1 = b.x1 * widthPx;
    if (x1 - x0 < w) return null;
    const box = { text, left: (x0 + x1) / 2 - w / 2, right: (x0 + x1) / 2 + w / 2 };
    if (box.left < 0 || box.right > widthPx || !clear(box)) return null;
    kept.push(box);
    return box;
  });
  return { ticks: tickBoxes, idle: idleBoxes };
}

export const idleLabel = (ms: number) => `idle ${formatDuration(ms)}`;
