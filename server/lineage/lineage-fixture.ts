import { line } from '../test-support/fixture-db';

// A session family drawn once for the lineage tests:
//
//   P (main.jsonl)                          ws1
//   ├─ T     title-T.jsonl                  title child, no tool span
//   ├─ C1    runSubagent-Explore-C1.jsonl   started by runSubagent tool Y1 in P
//   │  └─ C2 runSubagent-Deep-C2.jsonl      in P's folder, but started by runSubagent tool Y2 in C1's log
//   └─ F     F/main.jsonl                   a fork: its session_start names P
//      └─ K  F/main.jsonl resumed           K/main.jsonl: parent named only by a resumed run (rIdx 1) → continuation
//   G        G/main.jsonl                   a fork of M, which is not in the index
//
// The runSubagent tool calls are written after their child's lines and with earlier ts (FORMAT §3.5).

const T0 = 1775000000000;

type L = Record<string, unknown>;
const ev = (sid: string, ts: number, type: string, name: string, spanId: string, extra: L = {}): string =>
  line({ ts, dur: (extra.dur as number) ?? 0, sid, type, name, spanId, ...extra, status: extra.status ?? 'ok', attrs: extra.attrs ?? {} });

const start = (sid: string, ts: number, attrs: L = {}, rIdx?: number) =>
  line({ v: 1, ts, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0', ...attrs }, ...(rIdx ? { rIdx } : {}) });

export function lineageFiles(): Record<string, string> {
  const P = 'P';
  return {
    'P/main.jsonl': [
      start(P, T0),
      ev(P, T0 + 100, 'user_message', 'user_message', 'R1', { attrs: { content: 'explore the retry loop' } }),
      ev(P, T0 + 200, 'llm_request', 'chat:gpt-4.1', 'L1', { parentSpanId: 'R1', dur: 900, attrs: { model: 'gpt-4.1' } }),
      line({ ts: T0 + 1500, dur: 0, sid: P, type: 'child_session_ref', name: 'title', spanId: 'child-ref-T', status: 'ok', attrs: { childSessionId: 'T', childLogFile: 'title-T.jsonl', label: 'title' } }),
      line({ ts: T0 + 2000, dur: 0, sid: P, type: 'child_session_ref', name: 'runSubagent-Explore', spanId: 'child-ref-C1', parentSpanId: 'Y1', status: 'ok', attrs: { childSessionId: 'C1', childLogFile: 'runSubagent-Explore-C1.jsonl', label: 'runSubagent-Explore' } }),
      // the nested child's ref: in the top-level main.jsonl, pointing at a tool span that lives in C1's log
      line({ ts: T0 + 3000, dur: 0, sid: P, type: 'child_session_ref', name: 'runSubagent-Deep', spanId: 'child-ref-C2', parentSpanId: 'Y2', status: 'ok', attrs: { childSessionId: 'C2', childLogFile: 'runSubagent-Deep-C2.jsonl', label: 'runSubagent-Deep' } }),
      ev(P, T0 + 1900, 'tool_call', 'runSubagent', 'Y1', { parentSpanId: 'R1', dur: 8000, attrs: { args: '{"agentName":"Explore"}' } }),
    ].join(''),
    'P/title-T.jsonl': [start('T', T0 + 1500, { parentSessionId: P, label: 'title' }), ev('T', T0 + 1510, 'llm_request', 'chat:gpt-4.1-mini', 'LT', { dur: 300, attrs: {} })].join(''),
    'P/runSubagent-Explore-C1.jsonl': [
      start('C1', T0 + 2000, { parentSessionId: P, label: 'runSubagent-Explore' }),
      ev('C1', T0 + 2010, 'llm_request', 'chat:gpt-4.1', 'LC1', { parentSpanId: 'S1', dur: 400, attrs: {} }),
      ev('C1', T0 + 9000, 'tool_call', 'read_file', 'RF', { parentSpanId: 'S1', dur: 10, status: 'error', attrs: { error: 'ENOENT' } }),
      ev('C1', T0 + 2900, 'tool_call', 'runSubagent', 'Y2', { parentSpanId: 'S1', dur: 5000, attrs: { args: '{"agentName":"Deep"}' } }),
      ev('C1', T0 + 2005, 'subagent', 'Explore', 'S1', { parentSpanId: 'Y1', dur: 7900, attrs: { agentName: 'Explore' } }),
    ].join(''),
    // the nested child names the top-level session in its session_start: the tool span says better
    'P/runSubagent-Deep-C2.jsonl': [
      start('C2', T0 + 3000, { parentSessionId: P, label: 'runSubagent-Deep' }),
      ev('C2', T0 + 3010, 'llm_request', 'chat:gpt-4.1', 'LC2', { parentSpanId: 'S2', dur: 400, attrs: {} }),
      ev('C2', T0 + 2950, 'subagent', 'Deep', 'S2', { parentSpanId: 'Y2', dur: 4800, attrs: { agentName: 'Deep' } }),
    ].join(''),
    'F/main.jsonl': [start('F', T0 + 20000, { parentSessionId: P }), ev('F', T0 + 20100, 'user_message', 'user_message', 'RF1', { attrs: { content: 'try another way' } })].join(''),
    'K/main.jsonl': [
      start('K', T0 + 30000),
      ev('K', T0 + 30100, 'user_message', 'user_message', 'RK1', { attrs: { content: 'continue' } }),
      start('K', T0 + 40000, { parentSessionId: 'F' }, 1),
    ].join(''),
    'G/main.jsonl': [start('G', T0 + 50000, { parentSessionId: 'M' }), ev('G', T0 + 50100, 'user_message', 'user_message', 'RG1', { attrs: { content: 'fork of a lost one' } })].join(''),
  };
}
