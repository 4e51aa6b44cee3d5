// One very large session (100,000 events by default) for the session-view benchmark: requests with tool
// loops, hooks, failures, subagents in their own child logs, a title child, and idle gaps of hours. Lines
// are short (no inputMessages) so that the benchmark measures the view, not the indexer. Seeded: the same
// options write the same bytes.
import fs from 'node:fs';
import path from 'node:path';

export interface BigSessionOptions {
  /** a VS Code user-data-like root; the session lands in <root>/User/workspaceStorage/<ws>/… */
  root: string;
  events?: number;
  seed?: number;
  sessionId?: string;
  start?: number;
}

export interface BigSession {
  sessionId: string;
  /** every line written (all of them complete events) */
  events: number;
  /** event lines per file */
  files: { path: string; events: number }[];
  logsDir: string;
}

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const TOOLS = ['read_file', 'grep_search', 'run_in_terminal', 'replace_string_in_file', 'file_search', 'get_errors', 'semantic_search', 'list_dir'];
const hex = (r: () => number, n = 16) => Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
const uuid = (r: () => number) => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-8${hex(r, 3)}-${hex(r, 12)}`;

class Lines {
  private buf: string[] = [];
  private size = 0;
  count = 0;
  constructor(
    readonly file: string,
    readonly sid: string,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
  }
  write(o: Record<string, unknown>) {
    const line = JSON.stringify({ ts: o.ts, dur: o.dur ?? 0, sid: this.sid, ...o }) + '\n';
    this.buf.push(line);
    this.size += line.length;
    this.count++;
    if (this.size > 1 << 20) this.flush();
  }
  flush() {
    fs.appendFileSync(this.file, this.buf.join(''));
    this.buf = [];
    this.size = 0;
  }
}

export function writeBigSession(o: BigSessionOptions): BigSession {
  const target = o.events ?? 100_000;
  const r = rng(o.seed ?? 7);
  const sid = o.sessionId ?? uuid(r);
  const ws = path.join(o.root, 'User', 'workspaceStorage', 'bigsession0001');
  const repo = path.join(o.root, 'repos', 'big-repo');
  fs.mkdirSync(repo, { recursive: true });
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'workspace.json'), JSON.stringify({ folder: `file://${repo}` }));
  const logsDir = path.join(ws, 'GitHub.copilot-chat', 'debug-logs');
  const dir = path.join(logsDir, sid);
  const main = new Lines(path.join(dir, 'main.jsonl'), sid);
  const children: Lines[] = [];
  let clock = o.start ?? Date.UTC(2026, 10, 20, 9, 0, 0);
  const total = () => main.count + children.reduce((a, c) => a + c.count, 0);

  main.write({ v: 1, ts: clock, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0' } });
  const titleId = uuid(r);
  const title = new Lines(path.join(dir, `title-${titleId}.jsonl`), titleId);
  children.push(title);
  main.write({ ts: clock + 5, type: 'child_session_ref', name: 'title', spanId: `child-ref-${titleId}`, status: 'ok', attrs: { childSessionId: titleId, childLogFile: `title-${titleId}.jsonl`, label: 'title' } });
  title.write({ v: 1, ts: clock + 5, type: 'session_start', name: 'session_start', spanId: `session-start-${titleId}`, status: 'ok', attrs: { parentSessionId: sid, label: 'title' } });
  title.write({ ts: clock + 6, dur: 420, type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: hex(r), parentSpanId: hex(r), status: 'ok', attrs: { model: 'gpt-4o-mini', inputTokens: 300, outputTokens: 9, ttft: 210 } });

  /** One agent's tool loop; returns when the loop ends. `depth` > 0 inside a subagent. */
  const loop = (file: Lines, agent: string, agentParent: string | undefined, iterations: number, allowSubagent: boolean) => {
    for (let i = 0; i < iterations; i++) {
      file.write({ ts: clock, type: 'turn_start', name: `turn_start:${i}`, spanId: `turn_start-${agent}-${i}`, ...(agentParent ? { parentSpanId: agentParent } : {}), status: 'ok', attrs: { turnId: String(i) } });
      clock += 3 + Math.floor(r() * 20);
      const chat = hex(r);
      const failed = r() < 0.006;
      const ttft = 300 + Math.floor(r() * 900);
      const dur = failed ? 30_000 : ttft + Math.floor(r() * 4000);
      const attrs = failed ? { model: 'gpt-4.1', error: 'Request timed out' } : { model: 'gpt-4.1', inputTokens: 4000 + Math.floor(r() * 60000), outputTokens: 20 + Math.floor(r() * 600), ttft };
      file.write({ ts: clock, dur, type: 'llm_request', name: 'chat:gpt-4.1', spanId: chat, parentSpanId: agent, status: failed ? 'error' : 'ok', attrs });
      clock += dur;
      if (failed) return;
      const calls = i === iterations - 1 ? 0 : 1 + Math.floor(r() * 3);
      const names = Array.from({ length: calls }, () => TOOLS[Math.floor(r() * TOOLS.length)]);
      const sub = allowSubagent && calls > 0 && r() < 0.04;
      if (sub) names[0] = 'runSubagent';
      file.write({ ts: clock, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chat}`, parentSpanId: agent, status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: calls ? names.map((n, k) => ({ type: 'tool_call', id: `call_${k}`, name: n, arguments: '{}' })) : [{ type: 'text', content: `Done with step ${i}: updated the retry loop.` }] }]) } });
      for (const name of names) {
        const tool = hex(r);
        const start = clock;
        file.write({ ts: clock, dur: 2, type: 'hook', name: 'PreToolUse', spanId: hex(r), parentSpanId: agent, status: 'ok', attrs: { command: './hooks/check.sh', resultKind: 'success' } });
        clock += 3;
        if (name === 'runSubagent') {
          const childId = uuid(r);
          const child = new Lines(path.join(dir, `runSubagent-Explore-${childId}.jsonl`), childId);
          children.push(child);
          main.write({ ts: clock, type: 'child_session_ref', name: 'runSubagent-Explore', spanId: `child-ref-${childId}`, parentSpanId: tool, status: 'ok', attrs: { childSessionId: childId, childLogFile: `runSubagent-Explore-${childId}.jsonl`, label: 'runSubagent-Explore' } });
          child.write({ v: 1, ts: clock, type: 'session_start', name: 'session_start', spanId: `session-start-${childId}`, status: 'ok', attrs: { parentSessionId: sid, label: 'runSubagent-Explore' } });
          const subSpan = hex(r);
          const subStart = clock;
          child.write({ ts: clock, type: 'user_message', name: 'user_message', spanId: subSpan, parentSpanId: tool, status: 'ok', attrs: { content: 'Find every caller of retryDelay and report back.' } });
          loop(child, subSpan, tool, 5 + Math.floor(r() * 20), false);
          child.write({ ts: subStart, dur: clock - subStart, type: 'subagent', name: 'Explore', spanId: subSpan, parentSpanId: tool, status: 'ok', attrs: { agentName: 'Explore', description: 'Find callers of retryDelay' } });
          child.flush();
        } else {
          clock += 5 + Math.floor(r() * (name === 'run_in_terminal' ? 20_000 : 400));
        }
        const toolFailed = r() < 0.01;
        file.write({
          ts: start,
          dur: clock - start,
          type: 'tool_call',
          name,
          spanId: tool,
          parentSpanId: agent,
          status: toolFailed ? 'error' : 'ok',
          attrs: { args: JSON.stringify({ filePath: `/w/big-repo/src/module${Math.floor(r() * 400)}.ts`, query: 'retryDelay' }), result: toolFailed ? 'ENOENT: no such file' : `found ${Math.floor(r() * 40)} matches in src/http.ts and 3 other files`, ...(toolFailed ? { error: 'ENOENT: no such file' } : {}) },
        });
        file.write({ ts: clock, dur: 2, type: 'hook', name: 'PostToolUse', spanId: hex(r), parentSpanId: agent, status: 'ok', attrs: { command: './hooks/check.sh', resultKind: 'success' } });
        clock += 3;
      }
      file.write({ ts: clock, type: 'turn_end', name: `turn_end:${i}`, spanId: `turn_end-${agent}-${i}`, ...(agentParent ? { parentSpanId: agentParent } : {}), status: 'ok', attrs: { turnId: String(i) } });
    }
  };

  let request = 0;
  while (total() < target - 400) {
    const agent = hex(r);
    main.write({ ts: clock, type: 'user_message', name: 'user_message', spanId: agent, status: 'ok', attrs: { content: `Request ${request + 1}: fix the retry backoff in module ${Math.floor(r() * 400)} and add a test` } });
    loop(main, agent, undefined, 3 + Math.floor(r() * 25), true);
    request++;
    // The user thinks, or goes away for hours.
    clock += request % 15 === 0 ? 3_600_000 + Math.floor(r() * 7_200_000) : 10_000 + Math.floor(r() * 110_000);
  }
  // Pad with discovery events to land exactly on the target.
  while (total() < target) {
    main.write({ ts: clock, type: 'discovery', name: 'Load Instructions', spanId: `core-${hex(r)}`, status: 'ok', attrs: { details: 'loaded .github/copilot-instructions.md', category: 'discovery', source: 'core' } });
    clock += 1;
  }
  main.flush();
  for (const c of children) c.flush();
  return { sessionId: sid, events: total(), files: [main, ...children].map((f) => ({ path: f.file, events: f.count })), logsDir };
}
