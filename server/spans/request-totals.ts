import type { RequestTotals } from '../../shared/api';
import { creditsOf } from '../../shared/api';
import type { SpanTree } from './span-tree';

/** A row of the requests-only view: a canonical user message of the session itself (a child's are its work). */
export function isSessionRequest(tree: SpanTree, i: number): boolean {
  const e = tree.entry(i);
  return e.type === 'user_message' && e.dup === 0 && e.sessionId === tree.rootSessionId;
}

/** The canonical model calls of the tree: the only events whose credits the totals need. */
export function modelCallIds(tree: SpanTree): number[] {
  const ids: number[] = [];
  for (let i = 0; i < tree.length; i++) if (tree.type(i) === 'llm_request' && tree.dup(i) === 0) ids.push(tree.id(i));
  return ids;
}

/**
 * The totals of request node `i`: everything in its subtree (nodes[i+1 .. i+size]), child sessions' work
 * included. Model calls, tokens and credits count canonical `llm_request` events only (usage's rules: a replay
 * copy is another session's call); errors count every failed event, as the requests table does.
 * `creditsNano` holds the calls that carry copilotUsageNanoAiu; a call absent from it has no credit data.
 * A token total is null when the request has model calls and none of them reported that figure (a Copilot CLI
 * call writes its output tokens, its input tokens only in the session's totals): unknown, not 0.
 */
export function requestTotals(tree: SpanTree, i: number, creditsNano: ReadonlyMap<number, number>, label = ''): RequestTotals {
  const node = tree.node(i);
  const e = node.entry;
  let modelCalls = 0;
  let toolCalls = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  // the model calls that reported each figure: calls none of which did leave the total unknown, not 0
  let inReported = 0;
  let outReported = 0;
  let errors = 0;
  let nano: number | null = null;
  let callsWithoutCredits = 0;
  for (let k = i + 1; k <= i + node.size; k++) {
    const c = tree.entry(k);
    if (c.status === 1) errors++;
    if (c.type === 'tool_call' && c.dup === 0) toolCalls++;
    if (c.type !== 'llm_request' || c.dup !== 0) continue;
    modelCalls++;
    if (c.tokensIn !== null) {
      tokensIn += c.tokensIn;
      inReported++;
    }
    if (c.tokensOut !== null) {
      tokensOut += c.tokensOut;
      outReported++;
    }
    const n = creditsNano.get(c.id);
    if (n === undefined) callsWithoutCredits++;
    else nano = (nano ?? 0) + n;
  }
  const end = node.subtreeEnd === null ? e.ts : Math.max(node.subtreeEnd, e.ts ?? node.subtreeEnd);
  return {
    id: e.id,
    label,
    start: e.ts,
    duration: e.ts === null || end === null ? null : end - e.ts,
    modelCalls,
    toolCalls,
    tokensIn: modelCalls > 0 && inReported === 0 ? null : tokensIn,
    tokensOut: modelCalls > 0 && outReported === 0 ? null : tokensOut,
    errors,
    credits: creditsOf(nano),
    callsWithoutCredits,
    events: node.size,
    sessionId: e.sessionId,
  };
}
