// Session folders and files that exist only to exercise FORMAT §7 cases a normal session does not produce:
// legacy flat files (§2.5, §7.1), an empty folder (§7.6), a folder with only models.json (§7.5), a main.jsonl
// holding only session_start + child_session_ref (§7.7). The LMAR-era folder (§7.2) reuses the normal session
// writer with era 'lmar' and is planned in plan.ts.
import fs from 'node:fs';
import path from 'node:path';
import { writeModelsJson } from './companions';
import { Attrs, truncateAttr } from './entry';
import { writeHousekeepingChild } from './housekeeping';
import { JsonlFile, type FileStats } from './jsonl-file';
import type { Rng } from './random';
import { counterSpanId, SessionContext } from './session-context';
import type { SessionPlan } from './session-plan';
import { assistantText, codeSnippet, identifier, repoFile, titleText, userPrompt } from './text';
import type { WorkspacePlan } from './workspace';

/** LLEG capped attributes at 500 characters (FORMAT §2.5, §9.12). */
const LEGACY_LIMIT = 500;

export interface EdgeFolders {
  files: FileStats[];
  legacySessionIds: string[];
  emptySessionDirs: string[];
  modelsOnlySessionDirs: string[];
  refsOnlySessionId: string;
}

export function writeEdgeFolders(rng: Rng, ws: WorkspacePlan, t0: number, refsOnlyPlan: SessionPlan): EdgeFolders {
  const files: FileStats[] = [];
  const legacyId = rng.uuid();
  const titleId = rng.uuid();
  files.push(writeLegacySession(rng, ws, legacyId, t0));
  files.push(writeLegacyTitle(rng, ws, titleId, t0 + 40));

  const empty = path.join(ws.debugLogsDir, rng.uuid());
  fs.mkdirSync(empty, { recursive: true });
  const modelsOnly = path.join(ws.debugLogsDir, rng.uuid());
  fs.mkdirSync(modelsOnly, { recursive: true });
  writeModelsJson(modelsOnly, 1);

  files.push(...writeRefsOnlySession(refsOnlyPlan));
  return { files, legacySessionIds: [legacyId, titleId], emptySessionDirs: [empty], modelsOnlySessionDirs: [modelsOnly], refsOnlySessionId: refsOnlyPlan.id };
}

/** A main.jsonl whose only lines are session_start and a child_session_ref, plus that child (FORMAT §7.7). */
function writeRefsOnlySession(plan: SessionPlan): FileStats[] {
  const dir = path.join(plan.ws.debugLogsDir, plan.id);
  fs.mkdirSync(dir, { recursive: true });
  const ctx = new SessionContext(plan, dir);
  const a = new Attrs().str('copilotVersion', plan.copilotVersion).str('vscodeVersion', plan.vscodeVersion);
  ctx.write({ v: 1, ts: ctx.clock, dur: 0, type: 'session_start', name: 'session_start', spanId: `session-start-${plan.id}`, status: 'ok', attrs: a.toString() });
  const prompt = userPrompt(ctx.rng, plan.lang);
  writeHousekeepingChild(ctx, 'title', `Generate a short title for: ${prompt}`, titleText(ctx.rng), ctx.clock + 30);
  return ctx.finish();
}

/** LLEG flat file: no session_start, turns, hooks or child files; subagent spans land in the same file. */
function writeLegacySession(rng: Rng, ws: WorkspacePlan, id: string, t0: number): FileStats {
  const file = new JsonlFile(path.join(ws.debugLogsDir, `${id}.jsonl`), id, 'legacy');
  let t = t0;
  let spans = 0;
  const nextSpan = () => counterSpanId(++spans);
  const cap = (s: string) => truncateAttr(s, LEGACY_LIMIT);
  file.write({ ts: t - 5000, dur: 0, type: 'discovery', name: 'Load Instructions', spanId: `core-${t - 5000}`, status: 'ok', attrs: new Attrs().str('details', 'loaded: [".github/copilot-instructions.md"]').str('category', 'discovery').str('source', 'core').toString() });
  for (let r = 0; r < 3; r++) {
    const agent = nextSpan();
    const prompt = userPrompt(rng, 'en');
    file.write({ ts: t, dur: 0, type: 'user_message', name: 'user_message', spanId: agent, status: 'ok', attrs: new Attrs().str('content', cap(prompt)).toString() });
    for (let i = 0; i < 3; i++) {
      const chat = nextSpan();
      const dur = rng.int(800, 7000);
      file.write({ ts: t + 5, dur, type: 'llm_request', name: 'chat:gpt-4.1', spanId: chat, parentSpanId: agent, status: 'ok', attrs: new Attrs().str('model', 'gpt-4.1').num('inputTokens', rng.int(3000, 30000)).num('outputTokens', rng.int(20, 900)).num('ttft', rng.int(300, 2000)).toString() });
      t += dur + 5;
      const filePath = `${ws.logRoot}/${repoFile(rng)}`;
      const response = `[{"role":"assistant","parts":[{"type":"text","content":${JSON.stringify(assistantText(rng, 'en', 3) + '\n' + codeSnippet(rng, 8))}}]}]`;
      file.write({ ts: t, dur: 0, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chat}`, parentSpanId: agent, status: 'ok', attrs: new Attrs().str('response', cap(response)).toString() });
      const toolDur = rng.int(5, 200);
      const args = JSON.stringify({ filePath, startLine: 1, endLine: 120 });
      file.write({ ts: t + 2, dur: toolDur, type: 'tool_call', name: 'read_file', spanId: nextSpan(), parentSpanId: agent, status: 'ok', attrs: new Attrs().str('args', cap(args)).str('result', cap(codeSnippet(rng, 30))).toString() });
      t += toolDur + 10;
    }
    if (r === 1) {
      // Subagent spans are routed by session inheritance into this same file.
      const sub = nextSpan();
      const start = t;
      file.write({ ts: t + 3, dur: 40, type: 'tool_call', name: 'grep_search', spanId: nextSpan(), parentSpanId: sub, status: 'ok', attrs: new Attrs().str('args', JSON.stringify({ query: identifier(rng) })).str('result', 'No matches found.').toString() });
      t += 9000;
      file.write({ ts: start, dur: t - start, type: 'subagent', name: 'Explore', spanId: sub, parentSpanId: agent, status: 'ok', attrs: new Attrs().str('agentName', 'Explore').str('description', cap('Explore the code base')).toString() });
    }
    file.write({ ts: t, dur: 1, type: 'generic', name: 'Prompt rendering', spanId: nextSpan(), parentSpanId: agent, status: 'ok', attrs: new Attrs().str('details', 'rendered 12 context items').str('category', 'prompt').toString() });
    t += rng.int(60_000, 900_000);
  }
  return file.close();
}

/** LLEG gave title requests their own top-level file (every span auto-started a session). */
function writeLegacyTitle(rng: Rng, ws: WorkspacePlan, id: string, t: number): FileStats {
  const file = new JsonlFile(path.join(ws.debugLogsDir, `${id}.jsonl`), id, 'legacy');
  const chat = counterSpanId(1);
  file.write({ ts: t, dur: 420, type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: chat, status: 'ok', attrs: new Attrs().str('model', 'gpt-4o-mini').num('inputTokens', 210).num('outputTokens', 8).num('ttft', 300).toString() });
  const response = `[{"role":"assistant","parts":[{"type":"text","content":${JSON.stringify(titleText(rng))}}]}]`;
  file.write({ ts: t + 420, dur: 0, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chat}`, status: 'ok', attrs: new Attrs().str('response', response).toString() });
  return file.close();
}
