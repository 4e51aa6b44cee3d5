import { describe, expect, it } from 'vitest';
import { axisTime, axisX } from '../../shared/api';
import { axisHistogram, buildTimeAxis } from './time-axis';

const HOUR = 3_600_000;

describe('buildTimeAxis', () => {
  it('maps a session without idle time linearly onto 0..1', () => {
    const axis = buildTimeAxis([1000, 2000, 2500], [3000, 2100, 5000])!;
    expect(axis).toEqual({ start: 1000, end: 5000, segments: [{ t0: 1000, t1: 5000, x0: 0, x1: 1, idle: false }] });
    expect(axisX(axis, 3000)).toBe(0.5);
    expect(axisTime(axis, 0.25)).toBe(2000);
  });

  it('squeezes an hour away from the keyboard into a narrow marked segment', () => {
    // 0..10 min busy, an hour with nothing running, then 10 more minutes.
    //   |== active 10m ==|/ idle 1h /|== active 10m ==|
    //   0             0.485   0.515                  1
    const t0 = 1_000_000;
    const starts = [t0, t0 + 300_000, t0 + 600_000 + HOUR];
    const ends = [t0 + 300_000, t0 + 600_000, t0 + 1_200_000 + HOUR];
    const axis = buildTimeAxis(starts, ends)!;
    expect(axis.segments.map((s) => s.idle)).toEqual([false, true, false]);
    const [a, idle, b] = axis.segments;
    expect(idle.t0).toBe(t0 + 600_000);
    expect(idle.t1).toBe(t0 + 600_000 + HOUR);
    expect(idle.x1 - idle.x0).toBeCloseTo(0.03);
    expect(a.x1 - a.x0).toBeCloseTo(b.x1 - b.x0);
    expect(b.x1).toBe(1);
    // Bars on both sides keep their proportions; the inverse mapping agrees.
    expect(axisX(axis, t0 + 300_000)).toBeCloseTo(0.485 / 2, 3);
    expect(axisTime(axis, axisX(axis, t0 + 900_000 + HOUR))).toBeCloseTo(t0 + 900_000 + HOUR, 0);
  });

  it('does not squeeze short pauses, nor pauses covered by a long-running span', () => {
    // A 40 s pause is under the one-minute floor; a 2 h terminal command covers the other "gap".
    expect(buildTimeAxis([0, 100_000], [60_000, 120_000])!.segments).toHaveLength(1);
    expect(buildTimeAxis([0, 1000, 3 * HOUR], [2 * HOUR + 3 * HOUR, 2000, 3 * HOUR + 10])!.segments).toHaveLength(1);
  });

  it('limits the room all gaps take together', () => {
    const starts: number[] = [];
    const ends: number[] = [];
    for (let k = 0; k < 50; k++) {
      starts.push(k * HOUR);
      ends.push(k * HOUR + 60_000);
    }
    const axis = buildTimeAxis(starts, ends)!;
    const idle = axis.segments.filter((s) => s.idle);
    expect(idle).toHaveLength(49);
    expect(idle.reduce((sum, s) => sum + (s.x1 - s.x0), 0)).toBeCloseTo(0.25);
  });

  it('handles nothing, and a single instant', () => {
    expect(buildTimeAxis([], [])).toBeNull();
    expect(buildTimeAxis([5], [5])).toEqual({ start: 5, end: 6, segments: [{ t0: 5, t1: 6, x0: 0, x1: 1, idle: false }] });
  });
});

describe('axisHistogram', () => {
  it('counts starts and failures per slice of the axis', () => {
    const axis = buildTimeAxis([0, 10], [10, 20])!;
    const h = axisHistogram(axis, [0, 5, 19, 20], [0, 1, 0, 1], 4);
    expect(h.bins).toEqual([1, 1, 0, 2]);
    expect(h.errors).toEqual([0, 1, 0, 1]);
  });
});
