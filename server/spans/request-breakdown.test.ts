import { describe, expect, it } from 'vitest';
import { requestBreakdown } from './request-breakdown';
import { buildSpanTree, type SpanEntry } from './span-tree';

// Input a writer should not produce but a hand-edited or hostile line can (the realistic fixture is in
// request-timeline.test.ts).

let nextId = 1;
const entry = (e: Partial<SpanEntry>): SpanEntry => ({
  id: nextId++, sessionId: 'P', type: 'tool_call', name: 'x', spanId: null, parentSpanId: null, status: 0, ts: 0, dur: 0,
  model: null, tool: null, ttft: null, tokensIn: null, tokensOut: null, dup: 0, ...e,
});

describe('requestBreakdown on odd input', () => {
  it('fractional durations and a ttft longer than its call keep every kind in its place', () => {
    nextId = 1;
    const tree = buildSpanTree(
      [
        entry({ type: 'user_message', spanId: 'R', ts: 1_775_000_000_000 }),
        entry({ type: 'llm_request', spanId: 'C', parentSpanId: 'R', ts: 1_775_000_000_010, dur: 100.4, ttft: 250 }),
        entry({ spanId: 'T', parentSpanId: 'R', ts: 1_775_000_000_200, dur: 50.6 }),
      ],
      { rootSessionId: 'P' },
    );
    const b = requestBreakdown(tree, 0)!;
    // the ttft is cut at the call's end; whole ms: 10..110 waiting, 200..251 the tool
    expect({ ttft: b.ttft, generation: b.generation, model: b.model, tool: b.tool }).toEqual({ ttft: 100, generation: 0, model: 0, tool: 51 });
    expect(b.calls).toEqual([{ id: 2, start: 1_775_000_000_010, dur: 100.4, ttft: 250, generation: 0 }]);
    expect(b.idle).toBeCloseTo(250.6 - 151, 3);
  });
});
