import { expect, it } from 'vitest';
import type { SpanEntry } from './span-tree';
import { spanLabel } from './span-label';

const entry = (over: Partial<SpanEntry>): SpanEntry => ({
  id: 1, sessionId: 's', type: 'tool_call', name: 'grep', spanId: 'c1', parentSpanId: null, status: 1, ts: 0, dur: 5,
  model: null, tool: 'grep', ttft: null, tokensIn: null, tokensOut: null, dup: 0, rIdx: 0, ...over,
});

it("a failed tool call's row says why: a debug log's error text, a Copilot CLI completion's error.message", () => {
  expect(spanLabel(entry({}), { error: 'File not found: /a.ts', args: '{"filePath":"/a.ts"}' })).toBe('File not found: /a.ts');
  expect(spanLabel(entry({}), { toolCallId: 'c1', success: false, error: { message: 'Path does not exist', code: 'failure' } })).toBe('Path does not exist');
  // succeeded: a CLI completion's result
  expect(spanLabel(entry({ status: 0 }), { toolCallId: 'c1', success: true, result: { content: '3 matches' } })).toBe('3 matches');
});
