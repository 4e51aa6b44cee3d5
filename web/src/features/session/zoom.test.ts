import { describe, expect, it } from 'vitest';
import type { TimeAxis } from '../../../../shared/api';
import { landingZoom, MIN_WIDTH, panBy, wheelFactor, zoomBy, zoomToTimes } from './zoom';

const linear = (start: number, end: number): TimeAxis => ({ start, end, segments: [{ t0: start, t1: end, x0: 0, x1: 1, idle: false }] });
const close = (z: readonly number[] | null, want: readonly number[]) => {
  expect(z).not.toBeNull();
  z!.forEach((v, i) => expect(v).toBeCloseTo(want[i], 9));
};

describe('zoomBy', () => {
  it('zooms in around the middle, or around the pointer keeping it in place', () => {
    close(zoomBy(null, 0.5), [0.25, 0.75]);
    // the pointer at 20% of the view over [0.2, 0.6] is x = 0.28; it stays at 20% of the new view
    const z = zoomBy([0.2, 0.6], 0.5, 0.2)!;
    close(z, [0.24, 0.44]);
    expect((0.28 - z[0]) / (z[1] - z[0])).toBeCloseTo(0.2, 9);
  });

  it('zooming out past the whole axis is the whole axis (null), and stays inside it at the edges', () => {
    expect(zoomBy([0.2, 0.6], 4)).toBeNull();
    close(zoomBy([0.9, 1], 2), [0.8, 1]);
  });

  it('zooming in then out by the same step is the whole axis again, not 0.0000001-1 (rounding)', () => {
    for (const anchor of [0, 0.3, 0.5, 0.77, 1]) expect(zoomBy(zoomBy(null, 1 / 1.5, anchor), 1.5, anchor)).toBeNull();
  });

  it('never narrower than MIN_WIDTH', () => {
    const z = zoomBy([0.5, 0.5 + 2 * MIN_WIDTH], 0.01)!;
    expect(z[1] - z[0]).toBeCloseTo(MIN_WIDTH, 12);
  });
});

describe('panBy', () => {
  it('moves by a share of the view, stopping at the ends; nothing to pan unzoomed', () => {
    close(panBy([0.2, 0.4], 0.2), [0.24, 0.44]);
    close(panBy([0.1, 0.3], -1), [0, 0.2]);
    expect(panBy(null, 0.2)).toBeNull();
  });
});

describe('zoomToTimes and landingZoom', () => {
  const axis = linear(0, 100_000);

  it('fits a range with 5% room on each side', () => {
    close(zoomToTimes(axis, 40_000, 60_000), [0.39, 0.61]);
  });

  it('lands on the whole request when the call is wide enough in it', () => {
    close(landingZoom(axis, { start: 40_000, end: 60_000 }, { start: 45_000, end: 50_000 }), [0.39, 0.61]);
  });

  it('narrows to five times a sliver of a call, inside its request', () => {
    // a 1 s call in a 50 s request: a 5 s window centred on it
    close(landingZoom(axis, { start: 10_000, end: 60_000 }, { start: 30_000, end: 31_000 }), [0.28, 0.33]);
    // a call that ends the request stays centred: the window may use the 5% room a zoom to the request leaves,
    // so the call's bar is not cut at the edge
    close(landingZoom(axis, { start: 10_000, end: 60_000 }, { start: 59_000, end: 60_000 }), [0.57, 0.62]);
    // near the start the window slides inside that room
    close(landingZoom(axis, { start: 10_000, end: 60_000 }, { start: 8_000, end: 8_500 }), [0.075, 0.1]);
  });

  it('keeps a linked call at least an eighth of the view', () => {
    for (const dur of [1, 50, 500, 2000, 6000, 20_000]) {
      const z = landingZoom(axis, { start: 0, end: 90_000 }, { start: 40_000, end: 40_000 + dur })!;
      expect(dur / 100_000 / (z[1] - z[0])).toBeGreaterThanOrEqual(1 / 8 - 1e-9);
    }
  });
});

describe('wheelFactor', () => {
  it('zooms in for a wheel up, out for down, the same amount either way', () => {
    expect(wheelFactor(-100, 0)).toBeLessThan(1);
    expect(wheelFactor(100, 0) * wheelFactor(-100, 0)).toBeCloseTo(1, 12);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0), 12);
  });
});
