import { describe, expect, it } from 'vitest';
import { assistantText } from '../ingest/assistant-text';
import { filesAndRefsOfToolCall } from '../ingest/derive-files-refs';
import { processLine } from '../ingest/process-line';
import { valueStrings } from './indexed-text';
import { forgetParsedJson, parsedJsonOf, recordParsedJson } from './parsed-json';

const line = (entry: object) => ({ bytes: Buffer.from(JSON.stringify(entry)), byteOffset: 0, tooLong: false });

describe('parsed-json: what valueStrings parsed, for the derivations of the same line', () => {
  it('remembers each JSON text the walk parsed, nested ones too, and forgets them on demand', () => {
    forgetParsedJson();
    const args = JSON.stringify({ filePath: '/src/a.ts', inner: JSON.stringify({ k: 'v' }) });
    expect(recordParsedJson(() => valueStrings({ args, plain: 'not json' }))).toEqual(['/src/a.ts', 'v', 'not json']);
    expect(parsedJsonOf(args)).toEqual({ filePath: '/src/a.ts', inner: '{"k":"v"}' });
    expect(parsedJsonOf('{"k":"v"}')).toEqual({ k: 'v' });
    expect(parsedJsonOf('not json')).toBeUndefined();
    forgetParsedJson();
    expect(parsedJsonOf(args)).toBeUndefined();
  });

  it('keeps at most 16 values a line', () => {
    forgetParsedJson();
    const texts = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i: `s${i}` }));
    recordParsedJson(() => valueStrings(texts));
    expect(texts.map((t) => parsedJsonOf(t) !== undefined)).toEqual(texts.map((_, i) => i < 16));
  });

  it('keeps nothing from a walk outside a line being processed (search snippets and candidate checks on the read worker, companions)', () => {
    forgetParsedJson();
    const args = JSON.stringify({ filePath: '/src/c.ts' });
    expect(valueStrings({ args })).toEqual(['/src/c.ts']);
    expect(parsedJsonOf(args)).toBeUndefined();
  });

  it("processLine starts each line empty: the previous line's values are gone", () => {
    const response = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }] }]);
    processLine(line({ ts: 1, dur: 0, sid: 's', type: 'agent_response', name: 'agent_response', spanId: '1', status: 'ok', attrs: { response } }));
    expect(parsedJsonOf(response)).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'done' }] }]);
    processLine(line({ ts: 2, dur: 0, sid: 's', type: 'user_message', name: 'user_message', spanId: '2', status: 'ok', attrs: { content: 'hi' } }));
    expect(parsedJsonOf(response)).toBeUndefined();
  });

  it('the derivations read the same as from their own parse: a response text, a tool call file (and without a memo)', () => {
    const response = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'one' }, { type: 'tool_call', id: 'c', name: 'read_file', arguments: '{}' }, { type: 'text', content: 'two' }] }]);
    const args = JSON.stringify({ filePath: '/repo/src/b.ts' });
    const p = processLine(line({ ts: 1, dur: 0, sid: 's', type: 'tool_call', name: 'read_file', spanId: '3', status: 'ok', attrs: { args, response } }));
    const withMemo = { text: assistantText(response), files: filesAndRefsOfToolCall(p.event!) };
    forgetParsedJson();
    const without = { text: assistantText(response), files: filesAndRefsOfToolCall(p.event!) };
    expect(withMemo).toEqual(without);
    expect(withMemo.text).toBe('one\ntwo');
    expect(withMemo.files.files).toEqual([{ path: '/repo/src/b.ts', tool: 'read_file' }]);
  });
});
