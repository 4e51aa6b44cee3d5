// Lineage benchmarks (issue 6): the trace of the largest family in an index (target: ≤ 50 ms for a 500-node
// tree), a synthetic family of any size written as real debug logs (a generated corpus has no 500-node tree),
// and the time the graph takes to draw in the browser (target: ≤ 1 s at 500 nodes).
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { traceLineage } from '../../server/lineage/lineage-db';

/** The session with the most descendants (walking session_edges in memory), and how many it has. */
export function largestFamily(db: Database.Database): { sessionId: string; descendants: number } | null {
  const children = new Map<string, string[]>();
  const hasParent = new Set<string>();
  for (const e of db.prepare('SELECT child_id, parent_id FROM session_edges').all() as { child_id: string; parent_id: string }[]) {
    const list = children.get(e.parent_id);
    if (list) list.push(e.child_id);
    else children.set(e.parent_id, [e.child_id]);
    hasParent.add(e.child_id);
  }
  let best: { sessionId: string; descendants: number } | null = null;
  // the largest subtree hangs from a top session (a loop of parents has none: then any session will do)
  const tops = [...children.keys()].filter((id) => !hasParent.has(id));
  for (const root of tops.length > 0 ? tops : [...children.keys()]) {
    let n = 0;
    const seen = new Set([root]);
    const queue = [root];
    while (queue.length > 0) {
      for (const c of children.get(queue.pop()!) ?? []) {
        if (seen.has(c)) continue;
        seen.add(c);
        queue.push(c);
        n++;
      }
    }
    if (!best || n > best.descendants) best = { sessionId: root, descendants: n };
  }
  return best;
}

/**
 * `traceLineage` of the largest family with the API's default bounds: median and worst of `runs` timed calls
 * after two warm-up calls (prepared statements, page cache).
 */
export function traceLargest(db: Database.Database, runs = 20): { sessionId: string; nodes: number; medianMs: number; maxMs: number } | null {
  const family = largestFamily(db);
  if (!family) return null;
  const q = { depth: 50, limit: 1000 };
  let nodes = 0;
  for (let i = 0; i < 2; i++) nodes = (traceLineage(db, family.sessionId, q)?.descendantCount ?? 0) + 1;
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    traceLineage(db, family.sessionId, q);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { sessionId: family.sessionId, nodes, medianMs: ms[Math.floor(ms.length / 2)], maxMs: ms[ms.length - 1] };
}

const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const line = (o: object) => JSON.stringify(o) + '\n';

/**
 * Writes one family of `nodes` sessions as real logs under `<outDir>/Code/User/workspaceStorage/lineage-bench`:
 * a main session whose subagents start subagents (`fanout` children each, breadth first), every child log in
 * the top folder with its session_start, subagent entry and one model call, the runSubagent tool call and
 * child_session_ref in the log of the agent that ran it. Some children fail, so error counts show. Returns the
 * root's session id (what to trace) and the user-data dir to index.
 */
export function writeLineageTree(outDir: string, nodes: number, fanout = 4, t0 = Date.UTC(2026, 10, 20, 9)): { rootId: string; userDataDir: string } {
  const userDataDir = path.join(outDir, 'Code');
  const storage = path.join(userDataDir, 'User', 'workspaceStorage', 'lineage-bench');
  const rootId = uuid(0);
  const folder = path.join(storage, 'GitHub.copilot-chat', 'debug-logs', rootId);
  fs.rmSync(storage, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  fs.mkdirSync(path.join(outDir, 'repos', 'lineage-bench'), { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file://${path.join(outDir, 'repos', 'lineage-bench')}` }));
  const logs = new Map<string, string>();
  const label = (i: number) => (i === 0 ? null : `runSubagent-Worker${i % 7}`);
  const ts = (i: number) => t0 + i * 1000;
  const append = (id: number, text: string) => logs.set(uuid(id), (logs.get(uuid(id)) ?? '') + text);
  append(0, line({ v: 1, ts: ts(0), dur: 0, sid: rootId, type: 'session_start', name: 'session_start', spanId: `session-start-${rootId}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0' } }));
  append(0, line({ ts: ts(0) + 1, dur: 0, sid: rootId, type: 'user_message', name: 'user_message', spanId: 'req-0', status: 'ok', attrs: { content: `Plan and fan out ${nodes - 1} workers` } }));
  for (let i = 1; i < nodes; i++) {
    const parent = Math.floor((i - 1) / fanout);
    const sid = uuid(i);
    const psid = uuid(parent);
    const tool = `tool-${i}`;
    const failed = i % 17 === 0;
    append(parent, line({ ts: ts(i), dur: 0, sid: psid, type: 'child_session_ref', name: label(i), spanId: `child-ref-${sid}`, parentSpanId: tool, status: 'ok', attrs: { childSessionId: sid, childLogFile: `${label(i)}-${sid}.jsonl`, label: label(i) } }));
    append(parent, line({ ts: ts(i) - 5, dur: 900, sid: psid, type: 'tool_call', name: 'runSubagent', spanId: tool, parentSpanId: parent === 0 ? 'req-0' : `agent-${parent}`, status: failed ? 'error' : 'ok', attrs: { args: `{"agentName":"Worker${i % 7}"}`, ...(failed ? { error: 'Subagent failed' } : {}) } }));
    append(i, line({ v: 1, ts: ts(i), dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { parentSessionId: psid, label: label(i) } }));
    append(i, line({ ts: ts(i) + 2, dur: 400 + (i % 9) * 50, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: `llm-${i}`, parentSpanId: `agent-${i}`, status: failed ? 'error' : 'ok', attrs: { model: 'gpt-4.1', inputTokens: 1000 + i, outputTokens: 50, ...(failed ? { error: 'rate limited' } : {}) } }));
    append(i, line({ ts: ts(i) + 1, dur: 880, sid, type: 'subagent', name: `Worker${i % 7}`, spanId: `agent-${i}`, parentSpanId: tool, status: failed ? 'error' : 'ok', attrs: { agentName: `Worker${i % 7}`, description: `Worker ${i}` } }));
  }
  for (const [sid, text] of logs) {
    const i = parseInt(sid.slice(-12), 16);
    fs.writeFileSync(path.join(folder, i === 0 ? 'main.jsonl' : `${label(i)}-${sid}.jsonl`), text);
  }
  return { rootId, userDataDir };
}

/**
 * Opens `/lineage/<id>` and returns how long the graph took from the start of its layout to the frame after
 * @xyflow/react initialised (LineageGraph writes it to `data-render-ms`), and the nodes drawn.
 */
export async function measureLineageGraph(page: Page, baseUrl: string, sessionId: string, opts: { limit?: number } = {}): Promise<{ renderMs: number; nodes: number; totalMs: number }> {
  const t0 = Date.now();
  await page.goto(`${baseUrl}/lineage/${encodeURIComponent(sessionId)}${opts.limit ? `?limit=${opts.limit}` : ''}`);
  const graph = page.locator('.lineage-graph[data-render-ms]');
  await graph.waitFor({ state: 'attached', timeout: 30_000 });
  const totalMs = Date.now() - t0;
  const renderMs = Number(await graph.getAttribute('data-render-ms'));
  const nodes = Number(await graph.getAttribute('data-nodes'));
  return { renderMs, nodes, totalMs };
}
