/**
 * What the detail pane says about a row the tree placed by the shape of its span id (SpanRow.inferredParent),
 * so that a link the log does not state is never shown as if it did. Null when the parentSpanId placed it.
 */
export function inferredParentNote(type: string, parentSpanId: string | null, inferred: boolean): string | null {
  if (!inferred) return null;
  if (type === 'turn_start' || type === 'turn_end') {
    return parentSpanId === null
      ? 'Parent inferred from the span id (turn_start-<agent span>-<n>; it has no parentSpanId)'
      : 'Parent inferred from the span id (turn_start-<agent span>-<n>; its parentSpanId is that span’s parent)';
  }
  return parentSpanId === null
    ? 'Parent inferred from the span id (agent-msg-<model call>; it has no parentSpanId)'
    : 'Parent inferred from the span id (its parentSpanId names no entry)';
}
