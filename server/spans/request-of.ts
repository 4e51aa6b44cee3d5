import type { SpanTree } from './span-tree';

/**
 * The request (user_message node) an event belongs to: its outermost user_message ancestor, or itself. A
 * subagent's child log has a user_message of its own under the runSubagent tool; the request is the user's,
 * the one that tool call served. null when the event is under no request (session_start, a title child).
 */
export function requestOf(tree: SpanTree, i: number): number | null {
  let found: number | null = null;
  for (let k = i; k >= 0; k = tree.parent[k]) if (tree.type(k) === 'user_message') found = k;
  return found;
}
