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
  const req = tree.node(r);
  if (req.entry.ts === null) return null;
  const start = req.entry.ts;
  const end = Math.max(start + req.entry.dur, req.subtreeEnd ?? start);
  // [from, to, kind]: clipped to the request
  const spans: [number, number, number][] = [];
  // whole ms: the sweep packs a kind into each time's low bits (a hostile line may hold a fractional dur)
  const add = (from: number, to: number, kind: number) => {
    const a = Math.round(Math.max(start, from));
    const b = Math.round(Math.min(end, to));
    if (b > a) spans.push([a, b, kind]);
  };
  const calls: CallBreakdown[] = [];
  let callsTotal = 0;
  let anyTtft = false;
  // underTool[k - r]: node k is a tool call or inside one (a subagent's own model calls are its tool's time)
  const underTool = new Uint8Array(req.size + 1);
  for (let k = r + 1; k <= r + req.size; k++) {
    const node = tree.node(k);
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
  // Each edge packed in one number, whole ms × 8 + kind × 2 + (1 for a start), so a native typed-array sort orders
  // them (epoch ms × 8 stays below 2^53): half the time of sorting 200k small arrays (64 ms for a 100k-span request).
  const edges = new Float64Array(spans.length * 2);
  spans.forEach(([a, b, kind], k) => {
    edges[2 * k] = a * 8 + kind * 2 + 1;
    edges[2 * k + 1] = b * 8 + kind * 2;
  });
  edges.sort();
  const open = new Int32Array(KINDS);
  const sums = [0, 0, 0, 0];
  let prev = edges.length > 0 ? Math.floor(edges[0] / 8) : 0;
  for (const edge of edges) {
    const t = Math.floor(edge / 8);
    const code = edge - t * 8;
    if (t > prev) {
      const strongest = open.findIndex((n) => n > 0);
      if (strongest >= 0) sums[strongest] += t - prev;
      prev = t;
    }
    open[code >> 1] += code & 1 ? 1 : -1;
  }
  return sums;
}
