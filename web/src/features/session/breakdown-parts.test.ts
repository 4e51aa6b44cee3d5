import { describe, expect, it } from 'vitest';
import type { RequestBreakdown } from '../../../../shared/api';
import { callParts, requestParts } from './breakdown-parts';

const base: RequestBreakdown = { start: 1000, end: 9500, ttft: 700, generation: 2000, model: 1000, tool: 4510, idle: 290, calls: [], callsTotal: 3 };

describe('breakdown parts', () => {
  it('gives each part its share of the request; the shares add up to the whole', () => {
    const parts = requestParts(base);
    expect(parts.map((p) => [p.kind, p.ms])).toEqual([['ttft', 700], ['generation', 2000], ['model', 1000], ['tool', 4510], ['idle', 290]]);
    expect(parts.reduce((a, p) => a + p.share, 0)).toBeCloseTo(1, 12);
  });

  it('leaves out "model, no ttft" when every call has a ttft, and keeps an unknown ttft unknown', () => {
    expect(requestParts({ ...base, model: 0, tool: 5510 }).map((p) => p.kind)).toEqual(['ttft', 'generation', 'tool', 'idle']);
    const none = requestParts({ ...base, ttft: null, generation: null, model: 3700 });
    expect(none.slice(0, 3).map((p) => [p.kind, p.ms, p.share])).toEqual([['ttft', null, 0], ['generation', null, 0], ['model', 3700, 3700 / 8500]]);
  });

  it("splits a call by its ttft; a call without one is shown whole, its ttft unknown (not 0)", () => {
    expect(callParts({ id: 1, start: 0, dur: 2000, ttft: 500, generation: 1500 }).map((p) => [p.label, p.ms, p.share])).toEqual([['Time to first token', 500, 0.25], ['Generation', 1500, 0.75]]);
    expect(callParts({ id: 2, start: 0, dur: 1000, ttft: null, generation: null }).map((p) => [p.label, p.ms])).toEqual([['Time to first token', null], ['Generation', null], ['Whole call', 1000]]);
  });
});
