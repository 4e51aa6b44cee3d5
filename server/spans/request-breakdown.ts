// Where one request's time went (the contract and the exact definitions: RequestBreakdown in
// shared/api/request-timeline.ts). Pure: a sweep over the request's spans as intervals, so overlapping
// parallel tool calls, and a model call that overlaps a tool, are counted once.
import type { CallBreakdown, RequestBreakdown } from '../../shared/api';
import type { SpanTree } from './span-tree';

/** Model calls listed per request; a request with more gives their total (its sums still count every call). */
export const MAX_CALLS = 500;

// Lower is stronger: a moment covered by several kinds counts as the strongest.
const TTFT = 0;
const GENERATION = 1;
const MODEL = 2;
const TOOL = 3;
const KINDS = 4;

/** The breakdown of the request at node `r` (a user_message), or null when it has no time. */
export function requestBreakdown(tree: SpanTree, r: number): RequestBreakdown | null {
  const req = tree.nodes[r];
  if (req.entry.ts === null) return null;
  const start = req.entry.ts;
  const end = Math.max(start + req.entry.dur, req.subtreeEnd ?? start);
  // [from, to, kind]: clipped to the request
  const spans: [number, number, number][] = [];
  const add = (from: number, to: number, kind: number) => {
    const a = Math.max(start, from);
    const b = Math.min(end, to);
    if (b > a) spans.push([a, b, kind]);
  };
  const calls: CallBreakdown[] = [];
  let callsTotal = 0;
  let anyTtft = false;
  // underTool[k - r]: node k is a tool call or inside one (a subagent's own model calls are its tool's time)
  const underTool = new Uint8Array(req.size + 1);
  for (let k = r + 1; k <= r + req.size; k++) {
    const node = tree.nodes[k];
    const e = node.entry;
    const isTool = e.type === 'tool_call';
    underTool[k - r] = isTool || (node.parent > r && underTool[node.parent - r] === 1) ? 1 : 0;
    if (e.ts === null || e.dur <= 0) continue;
    if (isTool) add(e.ts, e.ts + e.dur, TOOL);
    else if (e.type === 'llm_request' && !underTool[k - r]) {
      callsTotal++;
      if (e.ttft !== null && e.ttft >= 0) {
        anyTtft = true;
        const first = e.ts + Math.min(e.ttft, e.dur);
        add(e.ts, first, TTFT);
        add(first, e.ts + e.dur, GENERATION);
      } else add(e.ts, e.ts + e.dur, MODEL);
      if (calls.length < MAX_CALLS) {
        const ttft = e.ttft !== null && e.ttft >= 0 ? e.ttft : null;
        calls.push({ id: e.id, start: e.ts, dur: e.dur, ttft, generation: ttft === null ? null : Math.max(0, e.dur - ttft) });
      }
    }
  }
  const sums = sweep(spans);
  const covered = sums.reduce((a, b) => a + b, 0);
  return {
    start,
    end,
    ttft: anyTtft ? sums[TTFT] : null,
    generation: anyTtft ? sums[GENERATION] : null,
    model: sums[MODEL],
    tool: sums[TOOL],
    idle: end - start - covered,
    calls,
    callsTotal,
  };
}

/** Time covered per kind, each moment given to the strongest kind covering it. */
function sweep(spans: readonly [number, number, number][]): number[] {
  const edges: [number, number, number][] = [];
  for (const [a, b, kind] of spans) edges.push([a, kind, 1], [b, kind, -1]);
  edges.sort((x, y) => x[0] - y[0]);
  const open = new Int32Array(KINDS);
  const sums = [0, 0, 0, 0];
  let prev = edges.length > 0 ? edges[0][0] : 0;
  for (const [t, kind, step] of edges) {
    if (t > prev) {
      const strongest = open.findIndex((n) => n > 0);
      if (strongest >= 0) sums[strongest] += t - prev;
      prev = t;
    }
    open[kind] += step;
  }
  return sums;
}
