import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spanOverview } from '../spans/list-spans';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { CHILD, exportedDocument, exportFixtureFiles, PARENT, splitDocuments } from './export-fixture';
import { ExportTooLargeError, otlpJsonParts, type OtlpDocument } from './otlp-json';

// The OTLP JSON export, rule by rule against what VS Code's Agent Debug Log import accepts and what collectors
// need (INTEROP §1–2).

interface KV {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: KV[];
  status: { code: number; message?: string };
}

let fx: FixtureDb;
let doc: OtlpDocument;
let spans: Span[];
const attr = (s: Span, key: string) => s.attributes.find((a) => a.key === key)?.value;
const byType = (type: string) => spans.filter((s) => attr(s, 'chronoscope.type')?.stringValue === type);
const EXPORTED_AT = Date.UTC(2026, 11, 1);

beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
  doc = exportedDocument(fx.db, PARENT, { exportedAt: EXPORTED_AT })!;
  spans = (doc.resourceSpans as { scopeSpans: { spans: Span[] }[] }[]).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
});
afterAll(() => fx.cleanup());

describe('OTLP JSON export (INTEROP §1)', () => {
  it('is one document with resourceSpans, each with an array scopeSpans, and spans', () => {
    expect(Array.isArray(doc.resourceSpans)).toBe(true);
    expect(doc.resourceSpans).toHaveLength(1);
    const rs = doc.resourceSpans[0] as { resource: { attributes: KV[] }; scopeSpans: unknown[] };
    expect(Array.isArray(rs.scopeSpans)).toBe(true);
    expect(Object.fromEntries(rs.resource.attributes.map((a) => [a.key, a.value.stringValue]))).toMatchObject({ 'service.name': 'github-copilot-chat', 'session.id': PARENT });
    expect(spans.length).toBeGreaterThan(0);
  });

  it('says which product wrote the session: service.name and chronoscope.source on the resource', () => {
    const resourceOf = (d: OtlpDocument) =>
      Object.fromEntries((d.resourceSpans[0] as { resource: { attributes: KV[] } }).resource.attributes.map((x) => [x.key, x.value.stringValue]));
    expect(resourceOf(doc)).toMatchObject({ 'service.name': 'github-copilot-chat', 'chronoscope.source': 'vscode' });
    // PARENT stands in for a CLI session until the CLI ingest writes them: the export reads only the column
    fx.db.prepare(`UPDATE sessions SET source = 'cli' WHERE id = ?`).run(PARENT);
    try {
      const cli = exportedDocument(fx.db, PARENT, { exportedAt: EXPORTED_AT })!;
      expect(resourceOf(cli)).toMatchObject({ 'service.name': 'github-copilot-cli', 'chronoscope.source': 'cli', 'session.id': PARENT });
    } finally {
      fx.db.prepare(`UPDATE sessions SET source = 'vscode' WHERE id = ?`).run(PARENT);
    }
  });

  it('has the copilotChat block VS Code reads first', () => {
    expect(doc.copilotChat).toEqual({ exportedAt: '2026-12-01T00:00:00.000Z', exporterVersion: expect.stringMatching(/^chronoscope /), sessionId: PARENT, sessionTitle: 'Why does the retry loop spin?' });
  });

  it('every span: a 32-hex traceId (one per session), a 16-hex spanId unique in the file', () => {
    for (const s of spans) {
      expect(s.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
  });

  it('every parentSpanId names a span of the file; roots have none', () => {
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) if (s.parentSpanId !== undefined) expect(ids.has(s.parentSpanId)).toBe(true);
    expect(spans.filter((s) => !s.parentSpanId).map((s) => attr(s, 'chronoscope.type')?.stringValue)).toEqual(['session_start', 'discovery', 'user_message']);
  });

  it('times are integer nanoseconds as decimal strings (VS Code runs BigInt on them), end ≥ start', () => {
    for (const s of spans) {
      expect(s.startTimeUnixNano).toMatch(/^\d+$/);
      expect(BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano)).toBe(true);
    }
    const first = byType('llm_request')[0];
    expect(first.startTimeUnixNano).toBe(String(BigInt(Date.UTC(2026, 10, 30, 9) + 20) * 1_000_000n));
    expect(BigInt(first.endTimeUnixNano) - BigInt(first.startTimeUnixNano)).toBe(4_200_000_000n);
  });

  it('every span has gen_ai.operation.name, by the table VS Code dispatches on', () => {
    const op = (type: string) => [...new Set(byType(type).map((s) => attr(s, 'gen_ai.operation.name')?.stringValue))];
    expect(op('llm_request')).toEqual(['chat']);
    expect(op('tool_call')).toEqual(['execute_tool']);
    expect(op('subagent')).toEqual(['invoke_agent']);
    for (const t of ['user_message', 'agent_response', 'discovery', 'turn_start', 'session_start']) expect(op(t)).toEqual(['core_event']);
    for (const s of spans) expect(attr(s, 'gen_ai.operation.name')?.stringValue).toBeTruthy();
  });

  it('numbers VS Code reads are intValue, never doubleValue', () => {
    const chat = byType('llm_request')[0];
    expect(attr(chat, 'gen_ai.usage.input_tokens')).toEqual({ intValue: 18000 });
    expect(attr(chat, 'gen_ai.usage.output_tokens')).toEqual({ intValue: 240 });
    expect(attr(chat, 'gen_ai.request.model')).toEqual({ stringValue: 'gpt-4.1' });
  });

  it('child logs are inlined under the span that started them', () => {
    const runSubagent = byType('tool_call').find((s) => s.name === 'runSubagent')!;
    const sub = byType('subagent')[0];
    expect(sub.parentSpanId).toBe(runSubagent.spanId);
    expect(attr(sub, 'gen_ai.agent.name')).toEqual({ stringValue: 'Explore' });
    const childCalls = spans.filter((s) => attr(s, 'copilot_chat.session_id')?.stringValue === CHILD && attr(s, 'chronoscope.type')?.stringValue !== 'session_start');
    expect(childCalls.filter((s) => s !== sub).every((s) => s.parentSpanId === sub.spanId)).toBe(true);
  });

  it('user and agent text are core_event details', () => {
    expect(attr(byType('user_message')[0], 'copilot_chat.event_details')).toEqual({ stringValue: 'Why does the retry loop spin?' });
    expect(byType('agent_response').map((s) => attr(s, 'copilot_chat.event_details')?.stringValue)).toEqual(['Let me look at the loop.', 'The loop never exits: add a bound.']);
    expect(attr(byType('discovery')[0], 'copilot_chat.event_category')).toEqual({ stringValue: 'discovery' });
  });

  it('tool calls carry their arguments and result; an error is status 2 with the message', () => {
    const failed = byType('tool_call').find((s) => s.name === 'run_in_terminal')!;
    expect(failed.status).toEqual({ code: 2, message: 'A native exception occurred during launch' });
    expect(attr(failed, 'gen_ai.tool.call.arguments')).toEqual({ stringValue: '{"command":"npm test"}' });
    expect(attr(failed, 'gen_ai.tool.call.result')).toEqual({ stringValue: 'ERROR: conpty.node missing' });
    expect(byType('tool_call').find((s) => s.name === 'read_file')!.status.code).toBe(0);
  });

  it('what VS Code cannot show is still written: TTFT, cached tokens, credits, prompt and companions\' names', () => {
    const chat = byType('llm_request')[0];
    expect(attr(chat, 'copilot_chat.time_to_first_token_ms')).toEqual({ intValue: 900 });
    expect(attr(chat, 'gen_ai.usage.cache_read.input_tokens')).toEqual({ intValue: 12000 });
    expect(attr(chat, 'copilot_chat.copilot_usage_nano_aiu')).toEqual({ intValue: 1_500_000_000 });
    expect(attr(chat, 'copilot_chat.system_prompt_file')).toEqual({ stringValue: 'system_prompt_0.json' });
    expect(attr(chat, 'copilot_chat.tools_file')).toEqual({ stringValue: 'tools_0.json' });
    expect(attr(chat, 'gen_ai.input.messages')?.stringValue).toContain('retry loop');
    expect(attr(chat, 'langfuse.observation.completion_start_time')).toEqual({ stringValue: new Date(Date.UTC(2026, 10, 30, 9) + 20 + 900).toISOString() });
    expect(attr(chat, 'openinference.span.kind')).toEqual({ stringValue: 'LLM' });
  });

  it('the span count is the session\'s events with its child logs (the session header\'s figure)', () => {
    expect(spans.length).toBe(spanOverview(fx.db, PARENT).stats.events);
    expect(spans.length).toBe(19); // 15 lines of main.jsonl (a 16th is garbage) and 4 of the child log
  });

  it('exporting twice gives the same file', () => {
    expect(JSON.stringify(exportedDocument(fx.db, PARENT, { exportedAt: EXPORTED_AT }))).toBe(JSON.stringify(doc));
  });

  it('over the size limit: refused with the size, or split into parts under it', () => {
    let err: unknown;
    try {
      exportedDocument(fx.db, PARENT, { maxBytes: 10_000 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ExportTooLargeError);
    expect((err as Error).message).toMatch(/^the export is 0\.\d MB \(19 spans\), over VS Code's 50 MB import limit: use --split/);
    const parts = splitDocuments(fx.db, PARENT, { maxBytes: 10_000, exportedAt: EXPORTED_AT });
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(Buffer.byteLength(JSON.stringify(p))).toBeLessThanOrEqual(10_000);
    for (const p of parts) expect(p.copilotChat).toEqual(doc.copilotChat);
    const all = parts.flatMap((p) => (p.resourceSpans as { scopeSpans: { spans: Span[] }[] }[]).flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    expect(all).toEqual(spans);
  });

  it("a split export's parts are JSON.stringify's bytes of each document, and one part when the export fits", () => {
    const parts = [...otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, exportedAt: EXPORTED_AT })!].map((p) => Buffer.concat(p).toString('utf8'));
    for (const p of parts) expect(p).toBe(JSON.stringify(JSON.parse(p)));
    const one = [...otlpJsonParts(fx.db, PARENT, { exportedAt: EXPORTED_AT })!].map((p) => Buffer.concat(p).toString('utf8'));
    expect(one).toEqual([JSON.stringify(doc)]);
    expect(otlpJsonParts(fx.db, 'nope')).toBeNull();
  });

  // `chronoscope export --split` of the bench archive's largest family (254k spans, 12 parts) read and held every
  // span with its line before writing the first part: 3.4 GB of RSS. Parts are made as they are taken now.
  it('a split export reads and encodes a part at a time: the first part comes before the last spans are read', () => {
    const serialize = vi.spyOn(JsonTraceSerializer, 'serializeRequest');
    try {
      const parts = otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, sizeBatch: 2 })![Symbol.iterator]();
      expect(serialize).not.toHaveBeenCalled();
      expect(parts.next().done).toBe(false);
      const encoded = new Set(serialize.mock.calls.flatMap(([batch]) => batch.map((s) => s.spanContext().spanId)));
      expect(encoded.size).toBeGreaterThan(0);
      expect(encoded.size).toBeLessThan(spans.length);
    } finally {
      serialize.mockRestore();
    }
  });

  it('a part whose batches the serializer wrote in another shape is encoded whole instead of joined', () => {
    const original = JsonTraceSerializer.serializeRequest.bind(JsonTraceSerializer);
    // a schemaUrl after the spans: the batches can no longer be cut around their spans
    const serialize = vi.spyOn(JsonTraceSerializer, 'serializeRequest').mockImplementation((s) => {
      const text = Buffer.from(original(s)!).toString('utf8');
      return new TextEncoder().encode(text.endsWith(']}]}]}') ? `${text.slice(0, -5)},"schemaUrl":"x"}]}]}` : text);
    });
    try {
      const parts = [...otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, sizeBatch: 3, exportedAt: EXPORTED_AT })!].map((p) => JSON.parse(Buffer.concat(p).toString('utf8')) as OtlpDocument);
      expect(parts.length).toBeGreaterThan(1);
      const all = parts.flatMap((p) => (p.resourceSpans as { scopeSpans: { spans: Span[]; schemaUrl: string }[] }[]).flatMap((r) => r.scopeSpans.flatMap((x) => x.spans)));
      expect(all).toEqual(spans);
    } finally {
      serialize.mockRestore();
    }
  });

  it('a span over the limit by itself goes alone in its part', () => {
    const sizes = spans.map((s) => Buffer.byteLength(JSON.stringify(s)));
    const limit = Math.max(...sizes); // the largest span alone, with its resource, scope and head, is over it
    const parts = [...otlpJsonParts(fx.db, PARENT, { maxBytes: limit, sizeBatch: 4, exportedAt: EXPORTED_AT })!].map((p) => JSON.parse(Buffer.concat(p).toString('utf8')) as OtlpDocument);
    const ids = parts.map((p) => (p.resourceSpans as { scopeSpans: { spans: Span[] }[] }[]).flatMap((r) => r.scopeSpans.flatMap((x) => x.spans.map((y) => y.spanId))));
    expect(ids.flat()).toEqual(spans.map((s) => s.spanId));
    const over = parts.map((p, k) => ({ bytes: Buffer.byteLength(JSON.stringify(p)), spans: ids[k].length })).filter((p) => p.bytes > limit);
    expect(over.length).toBeGreaterThan(0);
    for (const p of over) expect(p.spans).toBe(1);
  });

  // The bench archive's largest family (254k spans with their prompts) failed with a 500: its size was measured by
  // encoding the whole export as one string, past what V8 can hold ("RangeError: Invalid string length"). And its
  // second family (98 MB) was encoded whole, twice, 2.6 s, before the 413 said so.
  it('the size is measured in batches of spans, never the whole export as one string, and refused once they pass the limit', () => {
    const serialize = vi.spyOn(JsonTraceSerializer, 'serializeRequest');
    try {
      let err: unknown;
      try {
        exportedDocument(fx.db, PARENT, { maxBytes: 10_000, sizeBatch: 4 });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ExportTooLargeError);
      // the spans of the first two batches (8 of 19) are over 10,000 bytes: the other three are never encoded
      expect(serialize.mock.calls.map(([batch]) => batch.length)).toEqual([4, 4]);
      const { bytes, estimatedBytes } = err as ExportTooLargeError;
      const whole = Buffer.byteLength(JSON.stringify(doc));
      expect(bytes).toBeGreaterThan(10_000);
      expect(bytes).toBeLessThan(whole);
      // the whole at the rate of the spans encoded: what a user needs to know how many parts --split makes
      expect(estimatedBytes).toBe(Math.round((bytes * 19) / 8));
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
      expect((err as Error).message).toBe(
        `the export is over ${mb(bytes)} MB (its first 8 of 19 spans; about ${mb(estimatedBytes!)} MB in all at that rate), over VS Code's 50 MB import limit: use --split to write it in parts`,
      );
      serialize.mockClear();
      [...otlpJsonParts(fx.db, PARENT, { maxBytes: 10_000, sizeBatch: 4 })!];
      expect(Math.max(...serialize.mock.calls.map(([batch]) => batch.length))).toBeLessThan(spans.length);
    } finally {
      serialize.mockRestore();
    }
  });

  it('an export over the limit only in its last batch is refused with its exact size', () => {
    const whole = Buffer.byteLength(JSON.stringify({ ...doc, copilotChat: { ...doc.copilotChat, exportedAt: new Date(EXPORTED_AT).toISOString() } }));
    let err: unknown;
    try {
      exportedDocument(fx.db, PARENT, { maxBytes: whole - 1, sizeBatch: 4, exportedAt: EXPORTED_AT });
    } catch (e) {
      err = e;
    }
    expect((err as ExportTooLargeError).bytes).toBe(whole);
    expect((err as ExportTooLargeError).estimatedBytes).toBeNull();
    expect((err as Error).message).toMatch(/^the export is 0\.\d MB \(19 spans\)/);
    expect(Buffer.byteLength(JSON.stringify(exportedDocument(fx.db, PARENT, { maxBytes: whole, sizeBatch: 4, exportedAt: EXPORTED_AT })))).toBe(whole);
  });

  // …and it had already read every span with its raw line and text (the server at 1.35 GB of RSS for 10 s) to say so.
  it("refused before reading a span when the session's archived log lines alone are over the limit", () => {
    const serialize = vi.spyOn(JsonTraceSerializer, 'serializeRequest');
    try {
      expect(() => exportedDocument(fx.db, PARENT, { maxBytes: 1000 })).toThrow(ExportTooLargeError);
      expect(() => exportedDocument(fx.db, PARENT, { maxBytes: 1000 })).toThrow(/^the export is over 0\.\d MB \(its 19 log entries alone\), over VS Code's 50 MB import limit/);
      expect(serialize).not.toHaveBeenCalled();
    } finally {
      serialize.mockRestore();
    }
  });

  it("a log's bad lines are not counted as what the export holds", async () => {
    const sid = 'eeeeeeee-1111-4111-8111-111111111111';
    const garbage = `${'x'.repeat(20_000)}\n`.repeat(5); // 100 KB of lines that are not JSON: not exported
    const ok = line({ ts: Date.UTC(2026, 10, 20), dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'hi' } });
    const gx = await fixtureDb({ [`${sid}/main.jsonl`]: ok + garbage });
    try {
      const exported = exportedDocument(gx.db, sid, { maxBytes: 20_000 })!;
      expect(JSON.stringify(exported).length).toBeLessThan(20_000);
    } finally {
      gx.cleanup();
    }
  });

  // A discovery line the writer copies (FORMAT §4.4) written again into the same file is one event (dup 2): the tree and
  // the export leave the repeats out, but the early refusal counted their bytes.
  it('a line repeated inside its file is not counted as what the export holds', async () => {
    const sid = 'eeeeeeee-2222-4222-8222-222222222222';
    const ok = line({ ts: Date.UTC(2026, 10, 20), dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'hi' } });
    const copied = line({ ts: Date.UTC(2026, 10, 20, 0, 0, 1), dur: 0, sid, type: 'discovery', name: 'Load Skills', spanId: '0000000000000002', status: 'ok', attrs: { details: `loaded: ${'s'.repeat(4000)}`, category: 'discovery', source: 'core' } });
    const gx = await fixtureDb({ [`${sid}/main.jsonl`]: ok + copied.repeat(10) }); // ~40 KB of lines, 2 events exported
    try {
      expect(gx.db.prepare('SELECT count(*) FROM events WHERE dup = 2').pluck().get()).toBe(9);
      const exported = exportedDocument(gx.db, sid, { maxBytes: 20_000 })!;
      expect(JSON.stringify(exported).length).toBeLessThan(20_000);
    } finally {
      gx.cleanup();
    }
  });

  it('an unknown session is null', () => {
    expect(exportedDocument(fx.db, 'nope')).toBeNull();
  });
});
