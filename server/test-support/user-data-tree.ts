// Test helper: a VS Code user-data folder written the way the current Copilot Chat logger writes (FORMAT §10):
// span ids are counters that restart at 0000000000000001 in every session family (main log and child logs; they
// collide across sessions), both
// turn-id forms, `turnId` as string or number, attrs cut at 5,000 characters plus `[truncated]`, garbage lines,
// child logs and companion files, in workspace roots, the no-workspace root and profile roots.
import fs from 'node:fs';
import path from 'node:path';
import { line } from './fixture-db';

export interface SessionSpec {
  /** where the session's folder goes: a workspace name, 'global' or 'profile:<id>' */
  root: string;
  id: string;
  /** a word only this session's user messages contain, to search for */
  marker: string;
  requests: number;
  /** 'code' writes turn_start-<id>-<n> with a string turnId; 'skill' writes turn-start-<id>-<n> with a number */
  turnForm: 'code' | 'skill';
  /** a subagent child log in the folder */
  child?: boolean;
  /** garbage lines: a cut line, a line that is not JSON, an array, an object without a type */
  garbage?: boolean;
  /** the files' mtime, ms */
  mtime: number;
  tsBase: number;
}

export interface UserDataTree {
  userDataDir: string;
  debugLogsDirOf(root: string): string;
  /** every .jsonl file written, and every companion file */
  logFiles: string[];
  companionFiles: string[];
}

const hex = (n: number) => n.toString(16).padStart(16, '0');
const CUT = 5000;
const cut = (s: string) => (s.length > CUT ? `${s.slice(0, CUT)}[truncated]` : s);

/** Writes `<userDataDir>/User/…` with the sessions; each workspace gets a workspace.json naming a folder of its name. */
export function writeUserDataTree(userDataDir: string, sessions: SessionSpec[]): UserDataTree {
  const user = path.join(userDataDir, 'User');
  const debugLogsDirOf = (root: string) => {
    if (root === 'global') return path.join(user, 'globalStorage', 'github.copilot-chat', 'debug-logs');
    if (root.startsWith('profile:')) return path.join(user, 'profiles', root.slice('profile:'.length), 'globalStorage', 'github.copilot-chat', 'debug-logs');
    const storage = path.join(user, 'workspaceStorage', root);
    const folder = path.join(userDataDir, 'repos', root);
    fs.mkdirSync(folder, { recursive: true });
    fs.mkdirSync(storage, { recursive: true });
    fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file://${folder}` }, null, 2));
    return path.join(storage, 'GitHub.copilot-chat', 'debug-logs');
  };
  const tree: UserDataTree = { userDataDir, debugLogsDirOf, logFiles: [], companionFiles: [] };
  for (const spec of sessions) {
    const folder = path.join(debugLogsDirOf(spec.root), spec.id);
    fs.mkdirSync(folder, { recursive: true });
    const files = writeSessionFolder(folder, spec);
    for (const f of files) {
      fs.utimesSync(f, spec.mtime / 1000, spec.mtime / 1000);
      (f.endsWith('.jsonl') ? tree.logFiles : tree.companionFiles).push(f);
    }
  }
  return tree;
}

function writeSessionFolder(folder: string, spec: SessionSpec): string[] {
  let span = 0;
  const next = () => hex(++span); // the per-extension-host counter, restarted for every session (FORMAT §10.2)
  let ts = spec.tsBase;
  const at = () => (ts += 37);
  const sid = spec.id;
  const out: string[] = [];
  out.push(line({ ts: at(), dur: 0, sid, type: 'session_start', name: 'session_start', spanId: next(), status: 'ok', v: 1, attrs: { copilotVersion: '0.67.0', vscodeVersion: '1.107.0' } }));
  out.push(line({ ts: spec.tsBase - 5000, dur: 2, sid, type: 'discovery', name: 'discovery:instructions', spanId: next(), status: 'ok', attrs: { source: 'core', details: '{"loaded":["a.md"]}' } }));
  const childId = `0b7c4e1a-1111-2222-3333-${String(spec.tsBase).slice(-12).padStart(12, '0')}`;
  for (let r = 0; r < spec.requests; r++) {
    const agent = next();
    const message = `${spec.marker} request ${r}: fix the retry loop in src/net.ts`;
    out.push(line({ ts: at(), dur: 0, sid, type: 'user_message', name: 'user_message', spanId: next(), parentSpanId: agent, status: 'ok', attrs: { content: message } }));
    for (let n = 0; n < 2; n++) {
      const turnId = spec.turnForm === 'code' ? String(n) : n;
      const startId = spec.turnForm === 'code' ? `turn_start-${agent}-${n}` : `turn-start-${agent}-${n}`;
      const endId = spec.turnForm === 'code' ? `turn_end-${agent}-${n}` : `turn-end-${agent}-${n}`;
      out.push(line({ ts: at(), dur: 0, sid, type: 'turn_start', name: `turn_start:${n}`, spanId: startId, parentSpanId: agent, status: 'ok', attrs: { turnId } }));
      out.push(
        line({
          ts: at(), dur: 1200, sid, type: 'llm_request', name: 'chat:gpt-5.6-luna', spanId: next(), parentSpanId: agent, status: 'ok',
          attrs: { model: 'gpt-5.6-luna', inputTokens: 1000 + n, outputTokens: 50, ttft: 300, debugName: 'panel/editAgent', userRequest: message, requestOptions: '{"temperature":0}' },
        }),
      );
      out.push(
        line({
          ts: at(), dur: 15, sid, type: 'tool_call', name: 'read_file', spanId: next(), parentSpanId: agent, status: 'ok',
          attrs: { args: JSON.stringify({ filePath: '/w/src/net.ts' }), result: cut('const retry = 1;\n'.repeat(400)) },
        }),
      );
      out.push(line({ ts: at(), dur: 0, sid, type: 'turn_end', name: `turn_end:${n}`, spanId: endId, parentSpanId: agent, status: 'ok', attrs: { turnId } }));
    }
    if (spec.child && r === 0) {
      out.push(line({ ts: at(), dur: 0, sid, type: 'child_session_ref', name: 'runSubagent', spanId: `child-ref-${childId}`, parentSpanId: agent, status: 'ok', attrs: { childSessionId: childId, label: 'default', childLogFile: `runSubagent-default-${childId}.jsonl` } }));
    }
    out.push(line({ ts: at(), dur: 0, sid, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${agent}`, parentSpanId: agent, status: 'ok', attrs: { response: JSON.stringify([{ type: 'text', content: `done ${r}` }]) } }));
  }
  if (spec.garbage) {
    out.splice(3, 0, 'this line is not JSON\n', '[1,2,3]\n', line({ note: 'an object without a type' }));
    out.push('{"ts":1,"sid":"cut","type":"tool_call","attrs":{"args":"{\\"filePath\\":\n');
  }
  const main = path.join(folder, 'main.jsonl');
  fs.writeFileSync(main, out.join(''));
  const written = [main];
  if (spec.child) {
    // A child log is numbered by the same counter as its parent's (one extension host), after the parent's lines.
    const c = (o: object) => line({ sid: childId, status: 'ok', dur: 5, ts: at(), spanId: next(), ...o });
    const child = path.join(folder, `runSubagent-default-${childId}.jsonl`);
    fs.writeFileSync(
      child,
      c({ type: 'session_start', name: 'session_start', attrs: { parentSessionId: sid, label: 'default' } }) +
        c({ type: 'llm_request', name: 'chat:gpt-5.6-luna', attrs: { model: 'gpt-5.6-luna', inputTokens: 10, outputTokens: 2 } }) +
        c({ type: 'tool_call', name: 'grep_search', attrs: { args: '{"query":"retry"}', result: 'src/net.ts' } }),
    );
    written.push(child);
  }
  for (const [name, content] of [
    ['models.json', JSON.stringify([{ id: 'gpt-5.6-luna', vendor: 'openai', name: 'Luna' }], null, 2)],
    ['system_prompt_0.json', JSON.stringify({ content: 'You are a helpful coding agent.' }, null, 2)],
    ['tools_0.json', JSON.stringify({ content: [{ name: 'read_file' }] }, null, 2)],
  ]) {
    fs.writeFileSync(path.join(folder, name), content);
    written.push(path.join(folder, name));
  }
  return written;
}

/**
 * What `jq -c 'select(type == "object" and .type)'` counts in these files: lines that parse as a JSON object with a
 * non-empty type. The independent count the indexer's figures are checked against.
 */
export function jqEventCount(files: string[]): number {
  let n = 0;
  for (const f of files) {
    for (const text of fs.readFileSync(f, 'utf8').split('\n')) {
      try {
        const v: unknown = JSON.parse(text);
        if (v !== null && typeof v === 'object' && !Array.isArray(v) && (v as { type?: unknown }).type) n++;
      } catch {
        // not an entry
      }
    }
  }
  return n;
}
