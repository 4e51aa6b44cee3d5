import type Database from 'better-sqlite3';
import { line } from '../test-support/fixture-db';
import { otlpJsonDocument, otlpJsonParts, type OtlpDocument, type OtlpExportOptions } from './otlp-json';

// A session written the way the current logger writes (FORMAT §10): span ids are a window's counter (the
// subagent's log, written in the same window, continues it), turns in both id forms, a subagent in a child log whose subagent entry hangs off the parent's
// runSubagent tool call, a failed tool, a garbage line, and post-LVS attrs (cachedTokens, credits, debugName).

export const T0 = Date.UTC(2026, 10, 30, 9);
export const PARENT = 'eeeeeeee-0000-4000-8000-0000000000e1';
export const CHILD = 'eeeeeeee-0000-4000-8000-0000000000e2';
const id = (n: number) => n.toString(16).padStart(16, '0');

export function exportFixtureFiles(): Record<string, string> {
  const P = PARENT;
  const C = CHILD;
  return {
    [`${P}/main.jsonl`]: [
      line({ v: 1, ts: T0, dur: 0, sid: P, type: 'session_start', name: 'session_start', spanId: `session-start-${P}`, status: 'ok', attrs: { copilotVersion: '0.67.0', vscodeVersion: '1.120.0' } }),
      line({ ts: T0 + 5, dur: 0, sid: P, type: 'discovery', name: 'Load Skills', spanId: id(20), status: 'ok', attrs: { details: 'loaded: [troubleshoot] skipped: testing2 (name-mismatch)', category: 'discovery', source: 'core' } }),
      line({ ts: T0 + 10, dur: 0, sid: P, type: 'user_message', name: 'user_message', spanId: id(1), status: 'ok', attrs: { content: 'Why does the retry loop spin?' } }),
      line({ ts: T0 + 11, dur: 0, sid: P, type: 'turn_start', name: 'turn_start:0', spanId: `turn_start-${id(1)}-0`, parentSpanId: id(1), status: 'ok', attrs: { turnId: '0' } }),
      line({
        ts: T0 + 20,
        dur: 4200,
        sid: P,
        type: 'llm_request',
        name: 'chat:gpt-4.1',
        spanId: id(2),
        parentSpanId: id(1),
        status: 'ok',
        attrs: { model: 'gpt-4.1', inputTokens: 18000, outputTokens: 240, cachedTokens: 12000, ttft: 900, copilotUsageNanoAiu: 1_500_000_000, debugName: 'panel/editAgent', userRequest: 'Why does the retry loop spin?', inputMessages: '[{"role":"user","content":"Why does the retry loop spin?"}]', systemPromptFile: 'system_prompt_0.json', toolsFile: 'tools_0.json' },
      }),
      line({ ts: T0 + 4230, dur: 0, sid: P, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${id(2)}`, parentSpanId: id(1), status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Let me look at the loop.' }, { type: 'tool_call', id: 'c1', name: 'read_file', arguments: '{}' }] }]) } }),
      line({ ts: T0 + 4300, dur: 35, sid: P, type: 'tool_call', name: 'read_file', spanId: id(3), parentSpanId: id(1), status: 'ok', attrs: { args: '{"filePath":"/w/src/retry.ts"}', result: 'export function retry() { while (true) {} }' } }),
      line({ ts: T0 + 4400, dur: 20, sid: P, type: 'tool_call', name: 'run_in_terminal', spanId: id(4), parentSpanId: id(1), status: 'error', attrs: { args: '{"command":"npm test"}', result: 'ERROR: conpty.node missing', error: 'A native exception occurred during launch' } }),
      line({ ts: T0 + 4500, dur: 0, sid: P, type: 'child_session_ref', name: 'runSubagent-Explore', spanId: `child-ref-${C}`, parentSpanId: id(5), status: 'ok', attrs: { childSessionId: C, childLogFile: `runSubagent-Explore-${C}.jsonl`, label: 'runSubagent-Explore' } }),
      line({ ts: T0 + 4450, dur: 9000, sid: P, type: 'tool_call', name: 'runSubagent', spanId: id(5), parentSpanId: id(1), status: 'ok', attrs: { args: '{"agentName":"Explore"}', result: 'the loop has no exit condition' } }),
      line({ ts: T0 + 13_460, dur: 0, sid: P, type: 'turn_end', name: 'turn_end:0', spanId: `turn_end-${id(1)}-0`, parentSpanId: id(1), status: 'ok', attrs: { turnId: '0' } }),
      line({ ts: T0 + 13_470, dur: 0, sid: P, type: 'turn_start', name: 'turn_start:1', spanId: `turn-start-${id(1)}-1`, parentSpanId: id(1), status: 'ok', attrs: { turnId: 1 } }),
      line({ ts: T0 + 13_500, dur: 1200, sid: P, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(6), parentSpanId: id(1), status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 19000, outputTokens: 80, ttft: 300 } }),
      line({ ts: T0 + 14_710, dur: 0, sid: P, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${id(6)}`, parentSpanId: id(1), status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'The loop never exits: add a bound.' }] }]) } }),
      line({ ts: T0 + 14_720, dur: 0, sid: P, type: 'turn_end', name: 'turn_end:1', spanId: `turn-end-${id(1)}-1`, parentSpanId: id(1), status: 'ok', attrs: { turnId: 1 } }),
      '{"ts":1,"broken\n',
    ].join(''),
    [`${P}/runSubagent-Explore-${C}.jsonl`]: [
      line({ v: 1, ts: T0 + 4500, dur: 0, sid: C, type: 'session_start', name: 'session_start', spanId: `session-start-${C}`, status: 'ok', attrs: { copilotVersion: '0.67.0', vscodeVersion: '1.120.0', parentSessionId: P, label: 'runSubagent-Explore' } }),
      line({ ts: T0 + 4510, dur: 8900, sid: C, type: 'subagent', name: 'Explore', spanId: id(7), parentSpanId: id(5), status: 'ok', attrs: { agentName: 'Explore', description: 'find the loop' } }),
      line({ ts: T0 + 4600, dur: 2000, sid: C, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(8), parentSpanId: id(7), status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 5000, outputTokens: 60, ttft: 400 } }),
      line({ ts: T0 + 6700, dur: 15, sid: C, type: 'tool_call', name: 'grep_search', spanId: id(9), parentSpanId: id(7), status: 'ok', attrs: { args: '{"query":"while (true)"}', result: 'src/retry.ts:1' } }),
    ].join(''),
  };
}

/** A split export's parts (otlpJsonParts) read back as documents. */
export function splitDocuments(db: Database.Database, sessionId: string, o: OtlpExportOptions): OtlpDocument[] {
  return [...(otlpJsonParts(db, sessionId, o) ?? [])].map((p) => JSON.parse(Buffer.concat(p).toString('utf8')) as OtlpDocument);
}

/** The whole export (otlpJsonDocument) read back as a document; null for an unknown session. */
export function exportedDocument(db: Database.Database, sessionId: string, o: OtlpExportOptions = {}): OtlpDocument | null {
  const doc = otlpJsonDocument(db, sessionId, o);
  return doc === null ? null : (JSON.parse(Buffer.concat(doc).toString('utf8')) as OtlpDocument);
}
