// A Copilot CLI session exported: its tool calls with their arguments (from the start line), result and error,
// and its model calls' answers, in the Markdown and in OTLP, as a debug log's are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, RESULT_NEEDLE, cliTree } from '../ingest/cli/cli-fixture';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { exportMarkdown } from './markdown';
import { exportedDocument } from './export-fixture';
import { sessionSpans } from './session-spans';

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({}, { cli: cliTree() });
});
afterAll(() => fx.cleanup());

describe('a Copilot CLI session', () => {
  it("its tool calls carry their start line's arguments, the completion's result and error, under the debug log's names", () => {
    const spans = sessionSpans(fx.db, MAIN)!.spans.filter((s) => s.entry.type === 'tool_call');
    const byTool = Object.fromEntries(spans.map((s) => [s.entry.tool, { args: s.attrs.args, result: s.attrs.result, error: s.attrs.error }]));
    expect(byTool).toEqual({
      view: { args: '{"path":"/home/dev/uploader/src/retry.ts"}', result: `export function retry() { throw new Error("${RESULT_NEEDLE}") }`, error: undefined },
      bash: { args: '{"command":"npm test"}', result: undefined, error: 'Command failed with exit code 1' },
      task: { args: '{"agent_type":"explore","prompt":"Find callers of retry"}', result: 'upload.ts calls retry once', error: undefined },
      grep: { args: '{"pattern":"retry("}', result: 'src/upload.ts:12: retry()', error: undefined },
    });
  });

  it('the Markdown shows them, and the answers of its model calls', () => {
    const md = exportMarkdown(fx.db, MAIN)!;
    expect(md).toContain('- **Tool** `bash`');
    expect(md).toContain('"command":"npm test"');
    expect(md).toContain('error: ');
    expect(md).toContain('Command failed with exit code 1');
    expect(md).not.toContain('{"message":"Command failed'); // the error as text, not its JSON
    expect(md).toContain('src/upload.ts:12: retry()');
    expect(md).toContain('**Assistant:**');
    expect(md).toContain('Let me read the file.');
    // a CLI model call writes its output tokens, its input tokens only in the session's totals: unknown, not 0
    expect(md).toMatch(/- \*\*Model call\*\* `claude-sonnet-4\.5` · [^\n]* · \? → 120 tokens/);
    expect(md).not.toContain('0 → 120 tokens');
  });

  it('OTLP carries them as the tool and chat attributes collectors read', () => {
    const doc = exportedDocument(fx.db, MAIN, { exportedAt: 0 })!;
    type Span = { attributes: { key: string; value: { stringValue?: string } }[] };
    const spans = (doc.resourceSpans as { scopeSpans: { spans: Span[] }[] }[]).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const attr = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;
    const bash = spans.find((s) => attr(s, 'gen_ai.tool.name') === 'bash')!;
    expect([attr(bash, 'gen_ai.tool.call.arguments'), attr(bash, 'gen_ai.tool.call.result')]).toEqual(['{"command":"npm test"}', undefined]);
    const view = spans.find((s) => attr(s, 'gen_ai.tool.name') === 'view')!;
    expect(attr(view, 'output.value')).toBe(`export function retry() { throw new Error("${RESULT_NEEDLE}") }`);
    const answers = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat').map((s) => attr(s, 'output.value'));
    expect(answers).toContain('Let me read the file.');
    expect(answers).toContain('Searching.');
  });
});
