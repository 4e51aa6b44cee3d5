import { describe, expect, it } from 'vitest';
import { inferredParentNote } from './parent-note';

describe('inferredParentNote', () => {
  it('says how a row placed by its span id was placed, and nothing for a row its parentSpanId placed', () => {
    expect(inferredParentNote('agent_response', 'a1', false)).toBeNull();
    expect(inferredParentNote('agent_response', '0000000000000063', true)).toBe('Parent inferred from the span id (its parentSpanId names no entry)');
    expect(inferredParentNote('agent_response', null, true)).toBe('Parent inferred from the span id (agent-msg-<model call>; it has no parentSpanId)');
    expect(inferredParentNote('turn_start', null, true)).toBe('Parent inferred from the span id (turn_start-<agent span>-<n>; it has no parentSpanId)');
    expect(inferredParentNote('turn_end', 'r1', true)).toBe('Parent inferred from the span id (turn_start-<agent span>-<n>; its parentSpanId is that span’s parent)');
  });
});
