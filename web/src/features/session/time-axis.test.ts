import { describe, expect, it } from 'vitest';
import type { TimeAxis } from '../../../../shared/api';
import { barGeometry, formatOffset, idleBands, layoutRulerLabels, niceStep, rulerTicks, type LabelBox } from './time-axis';

const linear = (start: number, end: number): TimeAxis => ({ start, end, segments: [{ t0: start, t1: end, x0: 0, x1: 1, idle: false }] });

describe('niceStep and formatOffset', () => {
  it('rounds a step up to a round duration', () => {
    expect(niceStep(0.3)).toBe(1);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(700)).toBe(1000);
    expect(niceStep(11_000)).toBe(15_000);
    expect(niceStep(50 * 60_000)).toBe(3_600_000);
  });

  it('labels offsets as precisely as the step', () => {
    expect(formatOffset(0, 1000)).toBe('0');
    expect(formatOffset(250, 50)).toBe('0.25s');
    expect(formatOffset(61_500, 500)).toBe('1m 1.5s');
    expect(formatOffset(90_000, 15_000)).toBe('1m 30s');
    expect(formatOffset(3_930_000, 30_000)).toBe('1h 05m 30s');
    expect(formatOffset(65 * 60_000, 5 * 60_000)).toBe('1h 05m');
    expect(formatOffset(27 * 3_600_000, 3 * 3_600_000)).toBe('1d 03h');
  });
});

describe('rulerTicks', () => {
  it('puts round ticks across a plain range', () => {
    const { step, ticks } = rulerTicks(linear(0, 10_000), [0, 1], 5);
    expect(step).toBe(2000);
    expect(ticks.map((t) => t.label)).toEqual(['0', '2s', '4s', '6s', '8s', '10s']);
    expect(ticks[1].x).toBeCloseTo(0.2);
  });

  it('refines the step when zoomed in', () => {
    const { step, ticks } = rulerTicks(linear(0, 10_000), [0.5, 0.6], 5);
    expect(step).toBe(200);
    expect(ticks[0]).toMatchObject({ t: 5000, label: '5.0s' });
    expect(ticks[0].x).toBeCloseTo(0);
  });

  it('chooses the step from active time only and skips the idle gap', () => {
    // 10 s active, 1 h idle squeezed to 10% of the ruler, 10 s active.
    const axis: TimeAxis = {
      start: 0,
      end: 3_620_000,
      segments: [
        { t0: 0, t1: 10_000, x0: 0, x1: 0.45, idle: false },
        { t0: 10_000, t1: 3_610_000, x0: 0.45, x1: 0.55, idle: true },
        { t0: 3_610_000, t1: 3_620_000, x0: 0.55, x1: 1, idle: false },
      ],
    };
    const { step, ticks } = rulerTicks(axis, [0, 1], 8);
    expect(step).toBe(5000);
    expect(ticks.map((t) => t.label)).toEqual(['0', '5s', '10s', '1h 00m 10s', '1h 00m 15s', '1h 00m 20s']);
    expect(ticks.every((t) => t.x <= 0.45 + 1e-9 || t.x >= 0.55 - 1e-9)).toBe(true);
    expect(idleBands(axis, [0, 1])).toEqual([{ x0: 0.45, x1: 0.55, ms: 3_600_000 }]);
    expect(idleBands(axis, [0, 0.4])).toEqual([]);
  });

  it('gives each active stretch its own step: a wide busy minute fine ticks, a narrow burst none of its own', () => {
    // 60 s drawn over 80% of the ruler, a 2 h gap, then 10 min squeezed into 10%.
    const axis: TimeAxis = {
      start: 0,
      end: 7_860_000,
      segments: [
        { t0: 0, t1: 60_000, x0: 0, x1: 0.8, idle: false },
        { t0: 60_000, t1: 7_260_000, x0: 0.8, x1: 0.9, idle: true },
        { t0: 7_260_000, t1: 7_860_000, x0: 0.9, x1: 1, idle: false },
      ],
    };
    const { step, ticks } = rulerTicks(axis, [0, 1], 10);
    expect(step).toBe(10_000);
    expect(ticks.filter((t) => t.x <= 0.8).map((t) => t.label)).toEqual(['0', '10s', '20s', '30s', '40s', '50s', '1m 00s']);
    // the squeezed burst gets one tick where it starts, labelled with its offset
    expect(ticks.filter((t) => t.x > 0.8).map((t) => t.label)).toEqual(['2h 01m']);
  });
});

describe('barGeometry', () => {
  it('places a bar by start and duration in the visible range', () => {
    const axis = linear(1000, 2000);
    expect(barGeometry(axis, [0, 1], 1250, 1500)).toEqual({ left: 0.25, width: 0.25 });
    const zoomed = barGeometry(axis, [0.5, 1], 1250, 1500);
    expect(zoomed.left).toBeCloseTo(-0.5);
    expect(zoomed.width).toBeCloseTo(0.5);
  });
});

describe('layoutRulerLabels: labels never overlap', () => {
  // 10 px text: about 6 px a character (the browser measures with a canvas instead)
  const measure = (text: string) => text.length * 6;
  const shown = (l: ReturnType<typeof layoutRulerLabels>) => [...l.ticks, ...l.idle].filter((b): b is LabelBox => b !== null);
  const overlapping = (boxes: LabelBox[]) => {
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (boxes[i].left < boxes[j].right && boxes[j].left < boxes[i].right) return [boxes[i], boxes[j]];
    return null;
  };

  it('never draws "idle 1m 44s" over "5h 36m 30s" (issue 18): the tick label wins, the band keeps its hatching', () => {
    // two minutes of work up to 5h 36m 30s, then 1 min 44 s idle; at 900 px a tick sits at the band's left edge and
    // its label ran into the band's centred label
    const t = 5 * 3_600_000 + 36 * 60_000 + 30_000;
    const axis: TimeAxis = {
      start: 0,
      end: t + 134_000,
      segments: [
        { t0: 0, t1: t - 120_000, x0: 0, x1: 0.05, idle: true },
        { t0: t - 120_000, t1: t, x0: 0.05, x1: 0.45, idle: false },
        { t0: t, t1: t + 104_000, x0: 0.45, x1: 0.6, idle: true },
        { t0: t + 104_000, t1: t + 134_000, x0: 0.6, x1: 1, idle: false },
      ],
    };
    const ticks = rulerTicks(axis, [0, 1], 10).ticks;
    const layout = layoutRulerLabels(ticks, idleBands(axis, [0, 1]), 900, measure);
    expect(ticks.map((k) => k.label)).toEqual(['5h 34m 30s', '5h 35m 00s', '5h 35m 30s', '5h 36m 00s', '5h 36m 30s', '5h 38m 20s', '5h 38m 30s', '5h 38m 40s']);
    // the last tick's label would run past the ruler's right edge
    expect(layout.ticks.map((b) => b?.text ?? null)).toEqual(['5h 34m 30s', '5h 35m 00s', '5h 35m 30s', '5h 36m 00s', '5h 36m 30s', '5h 38m 20s', '5h 38m 30s', null]);
    // the first idle band is too narrow for its label; the second would cover "5h 36m 30s"
    expect(layout.idle).toEqual([null, null]);
    // wider, the band has room beside the tick label and says how long it was
    const wide = layoutRulerLabels(rulerTicks(axis, [0.3, 0.7], 10).ticks, idleBands(axis, [0.3, 0.7]), 900, measure);
    expect(wide.idle.map((b) => b?.text ?? null)).toEqual(['idle 1m 44s']);
    expect(overlapping(shown(wide))).toBeNull();
  });

  it('at any zoom and width, no two labels intersect and none runs past the ruler', () => {
    let seed = 18;
    const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    let checked = 0;
    for (let n = 0; n < 60; n++) {
      // a session of bursts and squeezed idle gaps of random lengths
      const segments: TimeAxis['segments'] = [];
      let t = 0;
      let x = 0;
      const count = 1 + Math.floor(rand() * 6);
      const widths = Array.from({ length: count * 2 - 1 }, () => 0.02 + rand());
      const sum = widths.reduce((a, b) => a + b, 0);
      widths.forEach((w, k) => {
        const idle = k % 2 === 1;
        const ms = idle ? 60_000 + Math.floor(rand() * 6 * 3_600_000) : 50 + Math.floor(rand() * 20 * 60_000);
        segments.push({ t0: t, t1: t + ms, x0: x, x1: k === widths.length - 1 ? 1 : x + w / sum, idle });
        t += ms;
        x += w / sum;
      });
      const axis: TimeAxis = { start: 0, end: t, segments };
      for (let z = 0; z < 25; z++) {
        const width = 10 ** (-5 * rand());
        const a = rand() * (1 - width);
        const zoom: [number, number] = [a, a + width];
        for (const px of [180, 320, 555, 800, 1024, 1600]) {
          const { ticks } = rulerTicks(axis, zoom, Math.max(2, Math.floor(px / 90)));
          const boxes = shown(layoutRulerLabels(ticks, idleBands(axis, zoom), px, measure));
          expect(overlapping(boxes), `axis ${n}, zoom ${zoom.join('-')}, ${px}px`).toBeNull();
          expect(boxes.every((b) => b.left >= 0 && b.right <= px)).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBe(60 * 25 * 6);
  });
});
