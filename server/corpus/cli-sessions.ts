// Copilot CLI sessions beside the VS Code user-data tree (INTEROP §3): `<outDir>/.copilot/session-state/<uuid>/`
// with events.jsonl, workspace.yaml and, for some, vscode.metadata.json; the agent-host sessions also get VS
// Code's per-call side file `<userDataDir>/User/agentHostUsage/<uuid>.jsonl`. The first sessions carry the cases
// the acceptance tests look for (subagents completed and failed, failed and MCP tools, hooks, a compaction, an
// error, a model change, a resume, a crash without shutdown, a fork); the rest draw them at random until the
// byte budget is spent. Nothing written depends on outDir, so the bytes are deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { CliLog } from './cli-log';
import type { Rng } from './random';
import { assistantText, errorText, identifier, pickLang, repoFile, userPrompt, type Lang } from './text';
import type { WorkspacePlan } from './workspace';

export const CLI_HOME = '.copilot';
const CLI_VERSION = '0.0.362';
const CLI_MODELS = ['claude-sonnet-4.5', 'gpt-5', 'claude-haiku-4.5', 'gpt-5-mini'] as const;
const DAY = 86_400_000;

type Feature = 'subagent' | 'subagentFailed' | 'mcp' | 'hooks' | 'compaction' | 'error' | 'modelChange' | 'resume' | 'crash' | 'agentHost' | 'badLines';

/** What the manifest says about one CLI session: what a correct ingest must find in it. */
export interface CliSessionFacts {
  sessionId: string;
  dir: string;
  eventsFile: string;
  /** Lines of events.jsonl that are events by the envelope rule. */
  events: number;
  completeLines: number;
  badLines: number;
  partialTail: boolean;
  bytes: number;
  /** Sum of `data.outputTokens` over its `assistant.message` events (jq). */
  outputTokens: number;
  /** A string found only in one tool result of this session. */
  uniqueResultText: string;
  toolCalls: number;
  failedToolCalls: number;
  subagents: number;
  failedSubagents: number;
  hasShutdown: boolean;
  resumed: boolean;
  forkOf: string | null;
  /** `<userDataDir>/User/agentHostUsage/<id>.jsonl`, or null. */
  usageFile: string | null;
  hasVscodeMetadata: boolean;
  cwd: string;
  repository: string | null;
  branch: string | null;
}

export interface CliCorpus {
  home: string;
  bytes: number;
  sessions: CliSessionFacts[];
  notable: {
    subagentSessionId: string;
    crashedSessionId: string;
    resumedSessionId: string;
    fork: { sessionId: string; parentId: string };
    agentHostSessionId: string;
  };
}

const FORCED: Feature[][] = [
  ['subagent', 'subagentFailed', 'mcp', 'hooks', 'agentHost'],
  ['compaction', 'error', 'modelChange'],
  ['resume'],
  ['crash'],
  [], // the fork of session 0
  ['agentHost', 'badLines', 'mcp'],
];
const RANDOM_FEATURES: [Feature, number][] = [
  ['subagent', 0.35],
  ['subagentFailed', 0.08],
  ['mcp', 0.3],
  ['hooks', 0.2],
  ['compaction', 0.1],
  ['error', 0.1],
  ['modelChange', 0.1],
  ['resume', 0.1],
  ['crash', 0.04],
  ['agentHost', 0.3],
  ['badLines', 0.05],
];

export function writeCliSessions(rng: Rng, outDir: string, workspaces: WorkspacePlan[], now: number, budget: number): CliCorpus {
  const home = path.join(outDir, CLI_HOME);
  const stateDir = path.join(home, 'session-state');
  fs.mkdirSync(stateDir, { recursive: true });
  const sessions: CliSessionFacts[] = [];
  let bytes = 0;
  for (let i = 0; i < FORCED.length || bytes < budget; i++) {
    const srng = rng.fork('cli-session', i);
    const features = new Set<Feature>(i < FORCED.length ? FORCED[i] : RANDOM_FEATURES.filter(([, p]) => srng.chance(p)).map(([f]) => f));
    const forkOf = i === 4 ? sessions[0].sessionId : null;
    const ws = workspaces[i % workspaces.length];
    // Forced cases are the newest, so the e2e's one-week windows show them.
    const start = now - (i < FORCED.length ? (FORCED.length - i) * 3_600_000 : srng.int(1, 60) * DAY / 2);
    const targetBytes = Math.max(6_000, Math.min(budget - bytes, Math.round(srng.logNormal(40_000, 0.8))));
    const facts = writeCliSession(srng, stateDir, outDir, ws, start, features, forkOf, targetBytes, i === 5);
    sessions.push(facts);
    bytes += facts.bytes + (facts.usageFile ? fs.statSync(facts.usageFile).size : 0);
  }
  const by = (f: (s: CliSessionFacts) => boolean) => sessions.find(f)!.sessionId;
  return {
    home,
    bytes,
    sessions,
    notable: {
      subagentSessionId: sessions[0].sessionId,
      crashedSessionId: sessions[3].sessionId,
      resumedSessionId: sessions[2].sessionId,
      fork: { sessionId: sessions[4].sessionId, parentId: sessions[0].sessionId },
      agentHostSessionId: by((s) => s.usageFile !== null),
    },
  };
}

interface UsageLine {
  turnId: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  totalNanoAiu: number;
  ts: number;
  apiCallId?: string;
  agentId?: string;
}

interface ModelTotals {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  nanoAiu: number;
}

/** The state of one session while its events are written. */
class CliSession {
  readonly log: CliLog;
  model: string;
  turn = 0;
  /** The user message being answered: its turns carry its interactionId. */
  interactionId = '';
  contextTokens = 8_000;
  readonly metrics = new Map<string, ModelTotals>();
  readonly usage: UsageLine[] = [];
  apiDurationMs = 0;
  nanoAiu = 0;
  premiumRequests = 0;
  toolCalls = 0;
  failedToolCalls = 0;
  subagents = 0;
  failedSubagents = 0;
  uniqueResultText: string;
  uniqueWritten = false;
  /** The side file's first format: no apiCallId or agentId. */
  usageV1 = false;

  constructor(
    readonly rng: Rng,
    readonly id: string,
    readonly ws: WorkspacePlan,
    readonly features: Set<Feature>,
    readonly lang: Lang,
    readonly start: number,
  ) {
    this.log = new CliLog(rng, start);
    this.model = rng.pick(CLI_MODELS);
    // Letters only (trigram search finds it whole), unique per session by its id's hex.
    this.uniqueResultText = `clitrace${id.replace(/-/g, '').slice(0, 12).replace(/[0-9]/g, (d) => 'ghijklmnop'[Number(d)])}`;
  }

  /** One model call: turn start, the message (with its tool requests), and the per-call usage VS Code would log. */
  modelCall(content: string, toolRequests: unknown[], scope: { agentId?: string; parentToolCallId?: string } = {}): void {
    const turnId = String(this.turn++);
    const interactionId = this.interactionId;
    const agent = scope.agentId === undefined ? {} : { agentId: scope.agentId };
    this.log.emit('assistant.turn_start', { turnId, model: this.model, interactionId }, agent);
    const latency = Math.round(this.rng.logNormal(2_500, 0.6));
    const outputTokens = Math.max(1, Math.round(content.length / 4 + toolRequests.length * 40 + this.rng.int(0, 60)));
    const inputTokens = this.contextTokens + this.rng.int(200, 1_500);
    const cacheReadTokens = Math.round(inputTokens * this.rng.next() * 0.8);
    this.contextTokens = inputTokens + outputTokens;
    const apiCallId = this.rng.uuid();
    const data: Record<string, unknown> = { messageId: this.rng.uuid(), content, model: this.model, outputTokens, toolRequests };
    if (this.rng.chance(0.25)) data.reasoningText = assistantText(this.rng, 'en', 1);
    if (scope.parentToolCallId) data.parentToolCallId = scope.parentToolCallId;
    data.turnId = turnId;
    data.apiCallId = apiCallId;
    this.log.emit('assistant.message', data, { ...agent, after: latency });
    this.log.emit('assistant.turn_end', { turnId }, agent);

    const nano = Math.round(inputTokens * 900 + outputTokens * 3_600);
    this.apiDurationMs += latency;
    this.nanoAiu += nano;
    this.premiumRequests += this.model.includes('mini') ? 0 : 1;
    const m = this.metrics.get(this.model) ?? { requests: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, nanoAiu: 0 };
    m.requests++;
    m.inputTokens += inputTokens;
    m.outputTokens += outputTokens;
    m.cacheReadTokens += cacheReadTokens;
    m.cacheWriteTokens += this.rng.int(0, 400);
    m.reasoningTokens += data.reasoningText ? this.rng.int(20, 300) : 0;
    m.nanoAiu += nano;
    this.metrics.set(this.model, m);
    const line: UsageLine = { turnId, model: this.model, inputTokens, outputTokens, cacheReadTokens, totalNanoAiu: this.nanoAiu, ts: this.log.t };
    if (!this.usageV1) {
      line.apiCallId = apiCallId;
      if (scope.agentId) line.agentId = scope.agentId;
    }
    this.usage.push(line);
  }

  /** A tool call: request in the message before it, then start and completion (success or error). */
  tool(call: ToolCall, scope: { agentId?: string; parentToolCallId?: string } = {}): void {
    const agent = scope.agentId === undefined ? {} : { agentId: scope.agentId };
    const hook = this.features.has('hooks') && !scope.agentId && this.rng.chance(0.6);
    if (hook) this.hook('preToolUse', { toolName: call.toolName, toolArgs: call.arguments });
    const start: Record<string, unknown> = { toolCallId: call.toolCallId, toolName: call.toolName, arguments: call.arguments };
    if (call.mcp) Object.assign(start, { mcpServerName: call.mcp.server, mcpToolName: call.mcp.tool });
    if (scope.parentToolCallId) start.parentToolCallId = scope.parentToolCallId;
    start.turnId = String(this.turn - 1);
    this.log.emit('tool.execution_start', start, agent);
    this.toolCalls++;
    const done: Record<string, unknown> = { toolCallId: call.toolCallId, success: call.error === undefined };
    if (call.error === undefined) {
      let content = call.result;
      if (!this.uniqueWritten && !scope.agentId) {
        content += `\n${this.uniqueResultText}`;
        this.uniqueWritten = true;
      }
      done.result = { content, detailedContent: content };
    } else {
      this.failedToolCalls++;
      done.error = { message: call.error, code: 'failure' };
    }
    done.turnId = String(this.turn - 1);
    this.log.emit('tool.execution_complete', done, { ...agent, after: Math.round(this.rng.logNormal(300, 1.2)) });
    if (hook) this.hook('postToolUse', { toolName: call.toolName, toolResult: call.error ?? 'ok' });
  }

  hook(hookType: string, input: Record<string, unknown>): void {
    const hookInvocationId = this.rng.uuid();
    this.log.emit('hook.start', { hookInvocationId, hookType, input });
    const failed = this.rng.chance(0.1);
    const end: Record<string, unknown> = { hookInvocationId, hookType, success: !failed };
    if (failed) end.error = { message: `hook script exited with code 1: ${errorText(this.rng)}` };
    else end.output = hookType === 'preToolUse' ? { permissionDecision: 'allow' } : {};
    this.log.emit('hook.end', end, { after: this.rng.int(5, 120) });
  }
}

interface ToolCall {
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  result: string;
  error?: string;
  mcp?: { server: string; tool: string };
}

function toolCallId(rng: Rng): string {
  return `toolu_${rng.hex(24)}`;
}

function plainTool(rng: Rng, ws: WorkspacePlan, failed: boolean): ToolCall {
  const file = `${ws.logRoot}/${repoFile(rng)}`;
  const kind = rng.pick(['bash', 'view', 'edit', 'grep', 'glob'] as const);
  const id = toolCallId(rng);
  const args: Record<string, Record<string, unknown>> = {
    bash: { command: `npx vitest run ${repoFile(rng)}`, description: `Run the tests of ${identifier(rng)}` },
    view: { path: file },
    edit: { path: file, old_str: `const ${identifier(rng)} = 1;`, new_str: `const ${identifier(rng)} = 2;` },
    grep: { pattern: identifier(rng), path: ws.logRoot },
    glob: { pattern: '**/*.ts' },
  };
  const results: Record<string, string> = {
    bash: ` ✓ ${repoFile(rng)} (${rng.int(2, 40)} tests) ${rng.int(20, 900)}ms\n\n Test Files  1 passed (1)`,
    view: `1. import { ${identifier(rng)} } from './${identifier(rng)}';\n2. \n3. export function ${identifier(rng)}() {}`,
    edit: `File ${file} updated with changes.`,
    grep: `${file}:${rng.int(1, 300)}: ${identifier(rng)}(${identifier(rng)})`,
    glob: [0, 1, 2].map(() => `${ws.logRoot}/${repoFile(rng)}`).join('\n'),
  };
  return { toolCallId: id, toolName: kind, arguments: args[kind], result: results[kind], error: failed ? errorText(rng) : undefined };
}

function mcpTool(rng: Rng, ws: WorkspacePlan, failed: boolean): ToolCall {
  const tool = rng.pick(['list_issues', 'get_pull_request', 'search_code'] as const);
  const repo = ws.githubRepo ?? 'octo-org/unknown';
  return {
    toolCallId: toolCallId(rng),
    toolName: `github-mcp-server-${tool}`,
    arguments: { owner: repo.split('/')[0], repo: repo.split('/')[1] ?? repo, query: identifier(rng) },
    result: JSON.stringify([{ number: rng.int(1, 4000), title: `Fix ${identifier(rng)} in ${repoFile(rng)}`, state: 'open' }]),
    error: failed ? 'MCP server github-mcp-server: request timed out after 60000ms' : undefined,
    mcp: { server: 'github-mcp-server', tool },
  };
}

function requestOf(call: ToolCall): Record<string, unknown> {
  return { toolCallId: call.toolCallId, name: call.toolName, arguments: call.arguments, type: 'function' };
}

function writeCliSession(
  rng: Rng,
  stateDir: string,
  outDir: string,
  ws: WorkspacePlan,
  start: number,
  features: Set<Feature>,
  forkOf: string | null,
  targetBytes: number,
  usageV1: boolean,
): CliSessionFacts {
  const id = rng.uuid();
  const dir = path.join(stateDir, id);
  fs.mkdirSync(dir, { recursive: true });
  const s = new CliSession(rng, id, ws, features, pickLang(rng), start);
  s.usageV1 = usageV1;
  const { log } = s;
  const repository = ws.githubRepo;
  const context: Record<string, unknown> = { cwd: ws.logRoot };
  if (ws.dirName !== null) Object.assign(context, { gitRoot: ws.logRoot, branch: ws.branch ?? 'main', repository, headCommit: rng.hex(40) });
  const startData: Record<string, unknown> = { sessionId: id, version: 1, producer: 'copilot-agent', copilotVersion: CLI_VERSION, startTime: new Date(start).toISOString(), selectedModel: s.model, context };
  if (forkOf) startData.detachedFromSpawningParentSessionId = forkOf;
  log.emit('session.start', startData, { after: 0 });

  let firstPrompt = '';
  let resumed = false;
  const interactions = Math.max(2, Math.round(targetBytes / 9_000));
  const forced = { subagent: features.has('subagent'), subagentFailed: features.has('subagentFailed'), mcp: features.has('mcp') };
  for (let n = 0; n < interactions; n++) {
    if (features.has('resume') && !resumed && n === Math.ceil(interactions / 2)) {
      shutdown(s);
      log.emit('session.resume', { resumeTime: new Date(log.t + 3 * 3_600_000).toISOString(), eventCount: log.eventCount }, { after: 3 * 3_600_000 });
      resumed = true;
    }
    if (features.has('modelChange') && n === 1) {
      const newModel = CLI_MODELS.find((m) => m !== s.model)!;
      log.emit('session.model_change', { previousModel: s.model, newModel });
      s.model = newModel;
    }
    const prompt = userPrompt(rng, s.lang);
    if (n === 0) firstPrompt = prompt;
    s.interactionId = rng.uuid();
    const sentAt = (log.t += rng.int(4_000, 90_000));
    log.emit('user.message', { content: prompt, transformedContent: `<current_datetime>${new Date(sentAt).toISOString()}</current_datetime>\n\n${prompt}`, attachments: [], agentMode: 'interactive', interactionId: s.interactionId, turnId: String(s.turn) }, { after: 0 });
    if (features.has('badLines') && n === 0) {
      log.notAnEvent('{"type":"tool.execution_start","data":{"toolCallId":"toolu_lost"},"timestamp":"2026-11-27T10:00:00.000Z","parentId":null}');
      log.notAnEvent(`{"type":"assistant.message","data":"not an object","id":"${rng.uuid()}","timestamp":"2026-11-27T10:00:00.000Z","parentId":null}`);
      log.notAnEvent('\u0000\u0000 not json at all');
    }
    const rounds = rng.int(1, 3);
    for (let r = 0; r < rounds; r++) {
      const calls: ToolCall[] = [];
      const count = rng.int(1, 3);
      for (let c = 0; c < count; c++) {
        const useMcp = forced.mcp || (features.has('mcp') && rng.chance(0.2));
        const failed = rng.chance(0.12) || (n === 0 && r === 0 && c === 0); // every session has a failed call
        calls.push(useMcp ? mcpTool(rng, ws, failed) : plainTool(rng, ws, failed));
        forced.mcp = false;
      }
      const spawn = forced.subagent || forced.subagentFailed || (features.has('subagent') && rng.chance(0.15));
      let task: ToolCall | null = null;
      if (spawn) {
        const agentName = rng.pick(['explore', 'task', 'code-review'] as const);
        task = { toolCallId: toolCallId(rng), toolName: 'task', arguments: { description: `Look into ${identifier(rng)}`, prompt: userPrompt(rng, 'en'), agent_type: agentName }, result: '' };
        calls.push(task);
      }
      s.modelCall(assistantText(rng, s.lang, rng.int(1, 3)), calls.map(requestOf));
      for (const call of calls) {
        if (call === task) {
          const failed = !forced.subagent && (forced.subagentFailed || rng.chance(0.1));
          if (forced.subagent) forced.subagent = false;
          else if (failed) forced.subagentFailed = false;
          subagent(s, call, failed);
        } else s.tool(call);
      }
    }
    s.modelCall(assistantText(rng, s.lang, rng.int(2, 6)), []);
    if (features.has('error') && n === 0) {
      log.emit('session.error', { errorType: 'rate_limit', message: 'Sorry, you have been rate-limited. Please wait a moment before trying again.', statusCode: 429, stack: `Error: rate limited\n    at CAPIClient.fetch (/usr/lib/node_modules/@github/copilot/index.js:${rng.int(1000, 99999)}:17)` });
    }
    if (features.has('compaction') && n === Math.floor(interactions / 2)) compaction(s);
    if (rng.chance(0.2)) log.emit('session.usage_checkpoint', { totalNanoAiu: s.nanoAiu, totalPremiumRequests: s.premiumRequests });
    if (log.bytes >= targetBytes && n >= 1 && (!features.has('resume') || resumed)) break;
  }
  if (!s.uniqueWritten) {
    const call = { ...plainTool(rng, ws, false), toolName: 'view' };
    s.modelCall(assistantText(rng, s.lang, 1), [requestOf(call)]);
    s.tool(call);
    s.modelCall(assistantText(rng, s.lang, 1), []);
  }
  const crashed = features.has('crash');
  if (crashed) log.cutTail('assistant.turn_start', { turnId: String(s.turn), model: s.model, interactionId: s.interactionId }, 61);
  else shutdown(s);
  const stats = log.close(path.join(dir, 'events.jsonl'));

  const created = new Date(start).toISOString();
  const updated = new Date(log.t).toISOString();
  const yaml = [`id: ${id}`, `cwd: ${ws.logRoot}`];
  if (ws.dirName !== null) yaml.push(`git_root: ${ws.logRoot}`, ...(repository ? [`repository: ${repository}`] : []), `branch: ${ws.branch ?? 'main'}`);
  yaml.push(`summary_count: ${features.has('compaction') ? 1 : 0}`, `created_at: ${created}`, `updated_at: ${updated}`);
  fs.writeFileSync(path.join(dir, 'workspace.yaml'), yaml.join('\n') + '\n');

  let usageFile: string | null = null;
  const hasVscodeMetadata = features.has('agentHost') || rng.chance(0.3);
  if (hasVscodeMetadata) {
    const meta = features.has('agentHost')
      ? { workspaceFolder: { folderPath: ws.logRoot, repositoryPath: ws.dirName === null ? undefined : ws.logRoot }, customTitle: `CLI: ${firstPrompt.slice(0, 60)}`, firstUserMessage: firstPrompt }
      : {};
    fs.writeFileSync(path.join(dir, 'vscode.metadata.json'), JSON.stringify(meta));
  }
  if (features.has('agentHost')) {
    const usageDir = path.join(outDir, ws.product, 'User', 'agentHostUsage');
    fs.mkdirSync(usageDir, { recursive: true });
    usageFile = path.join(usageDir, `${id}.jsonl`);
    fs.writeFileSync(usageFile, s.usage.map((u) => JSON.stringify(u) + '\n').join(''));
  }
  return {
    sessionId: id,
    dir,
    eventsFile: path.join(dir, 'events.jsonl'),
    events: stats.events,
    completeLines: stats.completeLines,
    badLines: stats.badLines,
    partialTail: stats.partialTail,
    bytes: stats.bytes,
    outputTokens: stats.outputTokens,
    uniqueResultText: s.uniqueResultText,
    toolCalls: s.toolCalls,
    failedToolCalls: s.failedToolCalls,
    subagents: s.subagents,
    failedSubagents: s.failedSubagents,
    hasShutdown: !crashed,
    resumed,
    forkOf,
    usageFile,
    hasVscodeMetadata,
    cwd: ws.logRoot,
    repository: ws.dirName === null ? null : repository,
    branch: ws.dirName === null ? null : (ws.branch ?? 'main'),
  };
}

/** A subagent under its spawning `task` call: its events carry agentId and the call's id as parentToolCallId. */
function subagent(s: CliSession, task: ToolCall, failed: boolean): void {
  const { log, rng } = s;
  const agentName = task.arguments.agent_type as string;
  const agentId = rng.uuid();
  const scope = { agentId, parentToolCallId: task.toolCallId };
  log.emit('tool.execution_start', { toolCallId: task.toolCallId, toolName: task.toolName, arguments: task.arguments, turnId: String(s.turn - 1) });
  s.toolCalls++;
  s.subagents++;
  const started = log.t;
  log.emit('subagent.started', { toolCallId: task.toolCallId, agentName, agentDisplayName: agentName, agentDescription: `The ${agentName} agent`, model: s.model });
  const tokensBefore = s.contextTokens;
  let calls = 0;
  for (let r = 0; r < rng.int(1, 3); r++) {
    const call = plainTool(rng, s.ws, rng.chance(0.1));
    s.modelCall(assistantText(rng, 'en', 1), [requestOf(call)], scope);
    s.tool(call, scope);
    calls++;
  }
  const durationMs = log.t - started + 20;
  if (failed) {
    s.failedSubagents++;
    s.failedToolCalls++;
    const error = `Subagent ${agentName} failed: ${errorText(rng)}`;
    log.emit('subagent.failed', { toolCallId: task.toolCallId, agentName, error, durationMs }, { after: 20 });
    log.emit('tool.execution_complete', { toolCallId: task.toolCallId, success: false, error: { message: error, code: 'failure' }, turnId: String(s.turn - 1) });
  } else {
    s.modelCall(assistantText(rng, 'en', 2), [], scope);
    log.emit('subagent.completed', { toolCallId: task.toolCallId, agentName, durationMs, totalTokens: s.contextTokens - tokensBefore, totalToolCalls: calls }, { after: 20 });
    const content = `The ${agentName} agent found: ${assistantText(rng, 'en', 2)}`;
    log.emit('tool.execution_complete', { toolCallId: task.toolCallId, success: true, result: { content, detailedContent: content }, turnId: String(s.turn - 1) });
  }
}

function compaction(s: CliSession): void {
  const { log, rng } = s;
  const pre = s.contextTokens;
  log.emit('session.compaction_start', { systemTokens: 4_200, conversationTokens: pre - 6_000, toolDefinitionsTokens: 1_800 });
  const post = Math.round(pre * 0.2);
  log.emit('session.compaction_complete', {
    success: true,
    preCompactionTokens: pre,
    postCompactionTokens: post,
    tokensRemoved: pre - post,
    messagesRemoved: rng.int(6, 40),
    summaryContent: `<overview>${assistantText(rng, 'en', 3)}</overview>`,
    checkpointNumber: 1,
    checkpointPath: `${CLI_HOME}/session-state/${s.id}/checkpoints/001-${identifier(rng).toLowerCase()}.md`,
  }, { after: rng.int(3_000, 9_000) });
  s.contextTokens = post;
}

function shutdown(s: CliSession): void {
  const modelMetrics: Record<string, unknown> = {};
  for (const [model, m] of s.metrics) {
    modelMetrics[model] = {
      requests: { count: m.requests, cost: model.includes('mini') ? 0 : m.requests },
      usage: { inputTokens: m.inputTokens, outputTokens: m.outputTokens, cacheReadTokens: m.cacheReadTokens, cacheWriteTokens: m.cacheWriteTokens, reasoningTokens: m.reasoningTokens },
      totalNanoAiu: m.nanoAiu,
    };
  }
  s.log.emit('session.shutdown', {
    shutdownType: 'routine',
    totalPremiumRequests: s.premiumRequests,
    totalApiDurationMs: s.apiDurationMs,
    totalNanoAiu: s.nanoAiu,
    sessionStartTime: s.start,
    codeChanges: { linesAdded: s.rng.int(0, 200), linesRemoved: s.rng.int(0, 80), filesModified: [`${s.ws.logRoot}/${repoFile(s.rng)}`] },
    modelMetrics,
  }, { after: 1_500 });
}
