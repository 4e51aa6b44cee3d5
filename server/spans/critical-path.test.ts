import { describe, expect, it } from 'vitest';
import { criticalPath, MAX_PATH } from './critical-path';
import { allNodes, buildSpanTree, type SpanEntry } from './span-tree';

// Edge cases of the walk on trees built from entries (the realistic fixture is in request-timeline.test.ts).

let nextId = 1;
const entry = (e: Partial<SpanEntry>): SpanEntry => ({
  id: nextId++, sessionId: 'P', type: 'tool_call', name: 'x', spanId: null, parentSpanId: null, status: 0, ts: 0, dur: 0,
  model: null, tool: null, ttft: null, tokensIn: null, tokensOut: null, dup: 0, ...e,
});

describe('criticalPath edge cases', () => {
  it("goes into a span's own children in time order, after the span's step", () => {
    nextId = 1;
    const tree = buildSpanTree(
      [
        entry({ type: 'user_message', name: 'request', spanId: 'R', ts: 0 }),
        entry({ name: 'tool', spanId: 'T', parentSpanId: 'R', ts: 10, dur: 100 }),
        // written to the child log after its tool ended: the extent of the tool covers it
        entry({ type: 'subagent', name: 'late child', spanId: 'S', parentSpanId: 'T', ts: 50, dur: 90 }),
        entry({ type: 'llm_request', name: 'early child', spanId: 'C', parentSpanId: 'T', ts: 12, dur: 20 }),
        entry({ type: 'turn_start', name: 'instant', spanId: 'turn_start-R-0', ts: 5 }),
      ],
      { rootSessionId: 'P' },
    );
    const path = criticalPath(tree, 0).map((s) => [allNodes(tree)[tree.indexOf(s.id)!].entry.name, s.from, s.to]);
    // an instant takes no time and is never on the path
    expect(path).toEqual([
      ['request', 0, 140],
      ['tool', 10, 140],
      ['early child', 12, 32],
      ['late child', 50, 140],
    ]);
  });

  it('a chain of many sequential calls is cut at MAX_PATH steps', () => {
    nextId = 1;
    const calls = Array.from({ length: MAX_PATH + 500 }, (_, k) => entry({ type: 'llm_request', spanId: `C${k}`, parentSpanId: 'R', ts: 1 + k * 10, dur: 9 }));
    const tree = buildSpanTree([entry({ type: 'user_message', spanId: 'R', ts: 0 }), ...calls], { rootSessionId: 'P' });
    const path = criticalPath(tree, 0);
    expect(path.length).toBe(MAX_PATH);
    // the steps nearest the end are kept: the request, then the last MAX_PATH − 1 calls
    expect(path[1].from).toBe(1 + 501 * 10);
    expect(path[path.length - 1].to).toBe(1 + (MAX_PATH + 499) * 10 + 9);
  });
});
