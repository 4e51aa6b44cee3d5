// One top-level session folder: session_start and replayed core events (promotion, FORMAT §4.4-4.5), then user
// requests separated by idle gaps until the byte budget is spent, with the planned one-off cases (restarts,
// model switch, huge attachments, garbage, size-cap fragment, partial tail) placed along the way.
import fs from 'node:fs';
import path from 'node:path';
import { type AgentScope, emitHook, runToolLoop } from './agent-loop';
import { writeModelsJson } from './companions';
import type { CoreEventSource, CoreRun } from './core-events';
import { Attrs, truncateAttr, type Entry } from './entry';
import { userMessage } from './history';
import { writeHousekeepingChild } from './housekeeping';
import type { FileStats, JsonlFile } from './jsonl-file';
import { SessionContext } from './session-context';
import type { Injection, RestartKind, SessionPlan } from './session-plan';
import { type Lang, bulkCode, pastedLog, summaryText, titleText, userPrompt } from './text';

const HOUR = 3_600_000;

export interface SharedState {
  core: CoreEventSource;
  /** First prompt of each session written so far, so a fork can quote its parent. */
  firstPrompts: Map<string, string>;
}

/** Something that happens once at a request boundary when the session has spent `at` of its budget. */
interface Milestone {
  at: number;
  kind: 'restart' | 'burst' | 'modelSwitch' | 'toolsChange';
  restart?: RestartKind;
}

function milestones(plan: SessionPlan): Milestone[] {
  const list: Milestone[] = [];
  plan.restarts.forEach((restart, i) => list.push({ at: (i + 1) / (plan.restarts.length + 1), kind: 'restart', restart }));
  for (let i = 0; i < plan.longContextBursts; i++) list.push({ at: (i + 0.7) / (plan.longContextBursts + 0.5), kind: 'burst' });
  if (plan.modelSwitch) list.push({ at: 0.45, kind: 'modelSwitch' });
  if (plan.toolsChange) list.push({ at: 0.3, kind: 'toolsChange' });
  return list.sort((a, b) => a.at - b.at);
}

export interface WrittenSession {
  files: FileStats[];
  nestedChildIds: string[];
}

export function writeTopLevelSession(plan: SessionPlan, shared: SharedState): WrittenSession {
  const dir = path.join(plan.ws.debugLogsDir, plan.id);
  fs.mkdirSync(dir, { recursive: true });
  if (plan.modelsJson !== null) writeModelsJson(dir, plan.modelsJson);
  const ctx = new SessionContext(plan, dir);
  const injections = [...plan.injections].sort((a, b) => a.ts - b.ts);
  const pending = milestones(plan);
  let requests = 0;
  let activeMs = 0;
  let runIndex = 0;

  if (plan.sizeCapped) writeSizeCapFragment(ctx);
  for (;;) {
    let burst = false;
    if (requests > 0) {
      const spent = ctx.bytes() >= plan.budget;
      if (spent && !ctx.hasPending() && pending.length === 0) break;
      const next = pending[0];
      let restarted = false;
      if (next && (spent || ctx.bytes() >= next.at * plan.budget)) {
        pending.shift();
        if (next.kind === 'restart') {
          resume(ctx, shared, next.restart!, ++runIndex);
          restarted = true;
        } else if (next.kind === 'burst') burst = true;
        else if (next.kind === 'modelSwitch') ctx.mainModel = ctx.mainModel === 'claude-sonnet-4' ? 'gpt-4.1' : 'claude-sonnet-4';
        else ctx.addMcpTools(5);
      }
      if (!restarted) idleGap(ctx, requests, activeMs);
    }
    writeInjections(ctx, injections, ctx.clock);
    if (requests === 0 && !plan.sizeCapped) promote(ctx, shared);
    const t0 = ctx.clock;
    runRequest(ctx, requests, shared, burst);
    activeMs += ctx.clock - t0;
    requests++;
    if (plan.garbage && requests === 1) writeGarbage(ctx.main);
  }
  writeInjections(ctx, injections, Infinity);
  if (plan.partialTail) writePartialTail(ctx);
  const stats = ctx.finish();
  if (plan.sizeCapped) writeStrayTmp(ctx.main.path);
  const mtime = new Date(Math.max(ctx.clock, ctx.main.lastActivity));
  fs.utimesSync(dir, mtime, mtime);
  return { files: stats, nestedChildIds: ctx.nestedChildIds };
}

function sessionStart(ctx: SessionContext): Entry {
  const { plan } = ctx;
  const a = new Attrs().str('copilotVersion', plan.copilotVersion).str('vscodeVersion', plan.vscodeVersion).str('parentSessionId', plan.forkOf);
  return { v: 1, ts: ctx.clock, dur: 0, type: 'session_start', name: 'session_start', spanId: `session-start-${plan.id}`, status: 'ok', attrs: a.toString() };
}

function replay(ctx: SessionContext, run: CoreRun): void {
  for (const e of run.events) ctx.write(e);
}

/** First startSession(): session_start, then the window's buffered core events (older ts than the line above). */
function promote(ctx: SessionContext, shared: SharedState): void {
  if (ctx.lvs) ctx.write(sessionStart(ctx));
  replay(ctx, shared.core.runAt(ctx.plan.ws, ctx.clock));
  ctx.tick(ctx.rng.int(1, 30));
}

/** VS Code restarted and the session continued: new run index stamped as rIdx on every later line. */
function resume(ctx: SessionContext, shared: SharedState, kind: RestartKind, runIndex: number): void {
  const { rng, plan } = ctx;
  const room = Math.max(10 * 60_000, (plan.end - ctx.clock) / 4);
  ctx.tick(Math.min(room, rng.int(1, 20) * HOUR));
  const run = shared.core.restartRun(rng.fork('restart', runIndex), ctx.clock - rng.int(60_000, 20 * 60_000), plan.ws.hooks);
  ctx.newWindow();
  if (kind === 'start-first' && ctx.lvs) {
    ctx.main.rIdx = 0; // Case 2 of FORMAT §4.6: the new session_start itself carries no rIdx
    ctx.write(sessionStart(ctx));
  }
  ctx.main.rIdx = runIndex;
  replay(ctx, run);
  ctx.tick(rng.int(1, 30));
}

/**
 * Think time before the next request, stretched so the session's activity spreads over its planned window
 * (idle hours between requests) and squeezed when the window is nearly used up.
 */
function idleGap(ctx: SessionContext, requests: number, activeMs: number): void {
  const { rng, plan } = ctx;
  const avgBytes = Math.max(1, ctx.bytes() / requests);
  const avgActive = activeMs / requests;
  const left = Math.max(1, (plan.budget - ctx.bytes()) / avgBytes);
  const slack = plan.end - ctx.clock - left * avgActive;
  let gap: number;
  if (slack <= 0) gap = rng.int(2_000, 15_000);
  else {
    const mean = slack / left;
    gap = rng.chance(0.5) ? Math.min(mean, rng.int(10_000, 180_000)) : rng.exp(mean * 1.8);
    gap = Math.min(gap, slack * 0.6);
  }
  ctx.tick(Math.max(1_500, gap));
}

function writeInjections(ctx: SessionContext, injections: Injection[], upTo: number): void {
  while (injections.length && injections[0].ts <= upTo) {
    const inj = injections.shift()!;
    ctx.write({ ts: inj.ts, dur: 0, type: 'user_message', name: 'user_message', spanId: inj.spanId, status: 'ok', attrs: new Attrs().str('content', inj.content).toString() });
  }
}

function rareWordSentence(word: string, lang: Lang): string {
  return lang === 'en' || !/[^\x00-\x7f]/.test(word) ? ` Also check the ${word} handling.` : `还有${word}的问题。`;
}

function runRequest(ctx: SessionContext, r: number, shared: SharedState, burst: boolean): void {
  const { rng, plan } = ctx;
  const agentSpan = ctx.spanId();
  let prompt = r === 0 && plan.forkOf ? `Continuing the forked chat: ${shared.firstPrompts.get(plan.forkOf) ?? userPrompt(rng, plan.lang)}` : userPrompt(rng, plan.lang);
  if (r === 0 && plan.rareWord) prompt += rareWordSentence(plan.rareWord, plan.lang);
  if (r === 0) shared.firstPrompts.set(plan.id, prompt);
  const bigPaste = r === 0 && plan.bigUserRequestChars > 0;
  const userRequest = bigPaste ? `${prompt}\n\n${pastedLog(rng, plan.bigUserRequestChars)}` : prompt;
  ctx.write({ ts: ctx.clock, dur: 0, type: 'user_message', name: 'user_message', spanId: agentSpan, status: 'ok', attrs: new Attrs().str('content', truncateAttr(userRequest, ctx.attrLimit)).toString() });
  if (r === 0 && !plan.sizeCapped) {
    writeHousekeepingChild(ctx, 'categorization', prompt, JSON.stringify({ intent: rng.pick(['fix', 'explain', 'generate', 'refactor']), language: 'typescript' }), ctx.clock + rng.int(3, 20));
    writeHousekeepingChild(ctx, 'title', `Generate a short title for: ${prompt}`, titleText(rng), ctx.clock + rng.int(20, 200));
  }
  if (ctx.mainHistory.pruned > plan.summarizeAfter) summarize(ctx);
  // A burst attaches a whole generated file: the history (and so inputMessages) passes the OTel cap once.
  const historyText = burst ? `${userRequest}\n\n#file:src/generated/schema.ts\n${bulkCode(rng, 66_000 + rng.int(0, 30_000))}` : userRequest;
  ctx.mainHistory.add(userMessage(historyText));
  const scope: AgentScope = {
    ctx,
    file: ctx.main,
    agentSpan,
    agentParent: undefined,
    isMain: true,
    depth: 0,
    history: ctx.mainHistory,
    model: ctx.mainModel,
    userRequest,
    byteLimit: plan.budget,
    forceNested: false,
    hookError: false,
  };
  const maxIterations = bigPaste ? 1 : burst ? 2 : 1 + Math.min(11, Math.floor(rng.logNormal(2.2, 0.8)));
  runToolLoop(scope, maxIterations);
  if (plan.ws.hooks) emitHook(scope, 'Stop');
}

/** Conversation compaction: a summarize child, and the history restarts from its summary. */
function summarize(ctx: SessionContext): void {
  const { rng, plan } = ctx;
  const summary = summaryText(rng, plan.lang);
  const end = writeHousekeepingChild(ctx, 'summarize', 'Summarize the conversation so far so the agent can continue.', summary, ctx.clock + rng.int(1, 10));
  ctx.clock = end + rng.int(2, 20);
  ctx.mainHistory.reset();
  ctx.mainHistory.add(userMessage(summary));
}

/**
 * Complete lines that are not JSON objects (FORMAT §4.11 "skip bad lines"). Exactly these 7 are counted
 * as badLines: a NUL run, invalid UTF-8, an array, a number, null, a string, and a cut-off object.
 */
function writeGarbage(file: JsonlFile): void {
  file.writeBadLine(Buffer.alloc(16, 0));
  file.writeBadLine(Buffer.concat([Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('{"ts":1,"note":"binary prefix"}')]));
  file.writeBadLine('[1,2]');
  file.writeBadLine('42');
  file.writeBadLine('null');
  file.writeBadLine('"just a string"');
  file.writeBadLine(`{"ts":1790000000000,"dur":12,"sid":${JSON.stringify(file.sessionId)},"type":"tool_c`);
}

/**
 * The size cap kept only the tail of the file (FORMAT §4.2-4.3): the first line is the end of a long line,
 * cut inside a multi-byte UTF-8 character, and session_start is gone.
 */
function writeSizeCapFragment(ctx: SessionContext): void {
  const { rng } = ctx;
  const lost = ctx.main.format({
    ts: ctx.clock - 60_000,
    dur: 2400,
    type: 'llm_request',
    name: `chat:${ctx.mainModel}`,
    spanId: ctx.spanId(),
    parentSpanId: ctx.spanId(),
    status: 'ok',
    attrs: new Attrs().str('model', ctx.mainModel).str('inputMessages', '[' + userMessage('日志落盘 ' + bulkCode(rng, 6000)) + ']').toString(),
  });
  const bytes = Buffer.from(lost);
  let cut = Math.floor(bytes.length / 2);
  while (cut < bytes.length && (bytes[cut] & 0xc0) !== 0x80) cut++; // land on a continuation byte
  if (cut >= bytes.length) cut = Math.floor(bytes.length / 2);
  ctx.main.writeBadLine(bytes.subarray(cut));
}

/** The live session: the logger's append is in progress, so the file ends mid-line. */
function writePartialTail(ctx: SessionContext): void {
  const line = ctx.main.format({
    ts: ctx.clock + 500,
    dur: 0,
    type: 'user_message',
    name: 'user_message',
    spanId: ctx.spanId(),
    status: 'ok',
    attrs: new Attrs().str('content', 'Now also update the changelog and bump the version').toString(),
  });
  ctx.main.writePartialTail(line.slice(0, Math.floor(line.length * 0.6)));
}

/** A truncation killed mid-way leaves main.jsonl.tmp (FORMAT §4.3e): a prefix of the new content. */
function writeStrayTmp(mainPath: string): void {
  const fd = fs.openSync(mainPath, 'r');
  const buf = Buffer.alloc(32 * 1024);
  const n = fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  fs.writeFileSync(mainPath + '.tmp', buf.subarray(0, Math.floor(n * 0.8)));
}
