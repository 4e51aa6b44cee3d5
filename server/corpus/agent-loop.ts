// The tool-calling loop of one agent (top-level request or subagent), written the way the logger writes it:
// lines in span-*completion* order with ts = span start (FORMAT §3.5, §4.8). One iteration is
// turn_start, llm_request, agent_response, the tool calls (each wrapped in Pre/PostToolUse hooks when the
// workspace has hooks), turn_end. runSubagent / search_subagent tools open child logs in the session folder
// and recurse, so a nested subagent's log also lands in the top-level folder.
import { maxOutputTokens } from './companions';
import { Attrs, truncateAttr, type Status } from './entry';
import { History, assistantMessage, toolResultMessage, userMessage, type ResponseCall } from './history';
import type { JsonlFile } from './jsonl-file';
import type { SessionContext } from './session-context';
import { assistantText, identifier, longAssistantText, repoFile, userPrompt } from './text';
import { READ_ONLY, pickToolKind, simpleTool, type SimpleToolKind, type ToolKind, type ToolOutcome } from './tools';

export interface AgentScope {
  ctx: SessionContext;
  file: JsonlFile;
  /** The invoke_agent span: user_message.spanId and the parent of chat/tool/hook spans. */
  agentSpan: string;
  /** Its parent: none for a top-level request, the runSubagent tool span for a subagent. */
  agentParent: string | undefined;
  isMain: boolean;
  depth: number;
  history: History;
  model: string;
  /** The last user-role message: llm_request.userRequest (never truncated). */
  userRequest: string;
  /** Session byte count at which this agent stops calling tools. */
  byteLimit: number;
  /** Subagent that must itself call runSubagent once (FORMAT nested subagents). */
  forceNested: boolean;
  /** Subagent whose first hook reports non_blocking_error (FORMAT §7.26, inside a child file). */
  hookError: boolean;
}

export interface LoopResult {
  text: string;
  failed: boolean;
}

interface PlannedCall extends ResponseCall {
  kind: ToolKind;
  outcome?: ToolOutcome;
  subagent?: { label: string; agentName: string; prompt: string; forceNested: boolean; hookError: boolean };
  danglingParent: boolean;
}

function ms(ctx: SessionContext, median: number, sigma: number): number {
  return Math.max(1, Math.round(ctx.rng.logNormal(median, sigma)));
}

export function runToolLoop(scope: AgentScope, maxIterations: number): LoopResult {
  const { ctx } = scope;
  for (let i = 0; ; i++) {
    if (ctx.lvs) emitTurn(scope, 'turn_start', i);
    ctx.tick(ctx.rng.int(1, 12));
    if (ctx.rng.chance(0.02)) emitSpanGeneric(scope);
    const chat = emitChat(scope, i);
    if (chat.failed) return { text: '', failed: true }; // the iteration threw: no agent_response, no turn_end
    const forcedTool = i < 12 && (scope.forceNested || (scope.isMain && hasForcedTool(ctx)));
    const wantTools = forcedTool || (i < maxIterations - 1 && ctx.bytes() < scope.byteLimit);
    const calls = wantTools ? planCalls(scope) : [];
    const text = emitResponse(scope, chat.spanId, calls);
    runCalls(scope, calls);
    if (ctx.lvs) emitTurn(scope, 'turn_end', i);
    if (calls.length === 0) return { text, failed: false };
  }
}

function hasForcedTool(ctx: SessionContext): boolean {
  return (
    ctx.has('nestedSubagent') ||
    ctx.has('sanitizedLabel') ||
    ctx.has('searchSubagent') ||
    ctx.has('defaultSubagent') ||
    ctx.has('childHookError') ||
    ctx.has('surrogateSplit') ||
    ctx.has('danglingParent') ||
    ctx.has('bigCreate')
  );
}

function emitTurn(scope: AgentScope, kind: 'turn_start' | 'turn_end', i: number): void {
  const { ctx } = scope;
  scope.file.write({
    ts: ctx.clock,
    dur: 0,
    type: kind,
    name: ctx.plan.variantNames ? kind : `${kind}:${i}`,
    spanId: `${kind}-${scope.agentSpan}-${i}`,
    parentSpanId: scope.agentParent,
    status: 'ok',
    attrs: new Attrs().str('turnId', String(i)).toString(),
  });
}

/** A `generic` entry from a content_event span: no `source` key (FORMAT §7.27). */
function emitSpanGeneric(scope: AgentScope): void {
  const { ctx } = scope;
  const dur = ms(ctx, 4, 0.8);
  const [name, category, details] = ctx.rng.pick([
    ['Prompt rendering', 'prompt', `Rendered prompt with ${ctx.rng.int(3, 40)} context items, ${ctx.rng.int(1000, 90000)} tokens budget`],
    ['Tool set expansion', 'tools', `Expanded tool sets: ["github", "edit", "search"]`],
    ['Instructions attached', 'prompt', 'attached: [".github/copilot-instructions.md"]'],
  ] as const);
  scope.file.write({ ts: ctx.clock, dur, type: 'generic', name, spanId: ctx.spanId(), parentSpanId: scope.agentSpan, status: 'ok', attrs: new Attrs().str('details', details).str('category', category).toString() });
  ctx.tick(dur);
}

interface ChatResult {
  spanId: string;
  failed: boolean;
}

const RATE_LIMIT = 'Server error: 429 Too Many Requests. You have exceeded your rate limit; retry after 12 seconds.';

function emitChat(scope: AgentScope, iteration: number): ChatResult {
  const { ctx } = scope;
  const { rng, plan } = ctx;
  const spanId = ctx.spanId();
  const start = ctx.clock;
  const unknown = scope.isMain && ctx.take('chatUnknown');
  const files = scope.isMain && ctx.lvs ? ctx.promptFiles(scope.model) : undefined;
  const failKind = rng.chance(0.006) ? rng.weighted<string>([['429', 5], ['timeout', 3], ['reset', 2]]) : null;
  const a = new Attrs();
  if (!unknown) a.str('model', scope.model);
  let dur: number;
  let outputTokens = 0;
  let inputTokens = 0;
  if (failKind) {
    dur = failKind === '429' ? ms(ctx, 400, 0.5) : failKind === 'timeout' ? 30_000 + rng.int(0, 90_000) : ms(ctx, 6000, 0.8);
    a.str('error', failKind === '429' ? RATE_LIMIT : failKind === 'timeout' ? 'Request timed out' : 'read ECONNRESET');
  } else {
    inputTokens = 2800 + Math.round(scope.history.length / 3.6) + rng.int(0, 400);
    outputTokens = Math.max(5, Math.min(maxOutputTokens(scope.model), Math.round(rng.logNormal(160, 0.9))));
    const ttft = ms(ctx, 700, 0.55);
    dur = ttft + Math.round(outputTokens * rng.int(4, 14));
    a.num('inputTokens', inputTokens).num('outputTokens', outputTokens).num('ttft', ttft);
  }
  if (ctx.lvs) a.str('userRequest', scope.userRequest).str('inputMessages', scope.history.inputMessages());
  a.num('maxTokens', maxOutputTokens(scope.model));
  if (scope.model === 'gpt-4.1') a.num('temperature', 0.1).num('topP', 1);
  if (files) a.str('systemPromptFile', files.system).str('toolsFile', files.tools);
  if (plan.postLvsAttrs) {
    a.str('debugName', scope.isMain ? 'panel/editAgent' : 'subagent');
    if (!failKind) {
      if (iteration > 0) a.num('cachedTokens', Math.round(inputTokens * (0.5 + rng.next() * 0.45)));
      a.num('copilotUsageNanoAiu', rng.int(1, 90) * 1_000_000);
      a.str('responseId', `resp_${rng.hex(24)}`);
    }
  }
  const name = plan.variantNames ? 'llm_request' : `chat:${unknown ? 'unknown' : scope.model}`;
  ctx.clock = start + dur;
  const status: Status = failKind ? 'error' : 'ok';
  scope.file.write({ ts: start, dur, type: 'llm_request', name, spanId, parentSpanId: scope.agentSpan, status, attrs: a.toString() });
  return { spanId, failed: failKind !== null };
}

function planCalls(scope: AgentScope): PlannedCall[] {
  const { ctx } = scope;
  const { rng } = ctx;
  const forced = forcedCall(scope);
  if (forced) return [forced];
  const first = pickToolKind(rng, !scope.isMain);
  const kinds: ToolKind[] = [first];
  // Parallel read-only calls (the model asks for several files at once).
  if (READ_ONLY.has(first) && rng.chance(0.45)) {
    const extra = rng.int(1, 4);
    for (let k = 0; k < extra; k++) kinds.push(rng.pick(['read_file', 'grep_search', 'file_search'] as const));
  }
  return kinds.map((kind) => makeCall(scope, kind, {}));
}

function forcedCall(scope: AgentScope): PlannedCall | undefined {
  const { ctx } = scope;
  if (scope.forceNested) {
    scope.forceNested = false;
    return makeCall(scope, 'runSubagent', { agentName: 'Explore' });
  }
  if (!scope.isMain) return undefined;
  if (ctx.take('nestedSubagent')) return makeCall(scope, 'runSubagent', { agentName: 'Planner', forceNested: true });
  if (ctx.take('sanitizedLabel')) return makeCall(scope, 'runSubagent', { agentName: 'my/agent' });
  if (ctx.take('childHookError')) return makeCall(scope, 'runSubagent', { agentName: 'Reviewer', hookError: true });
  if (ctx.take('searchSubagent')) return makeCall(scope, 'search_subagent', {});
  if (ctx.take('defaultSubagent')) return makeCall(scope, 'runSubagent', { agentName: 'default' });
  if (ctx.take('surrogateSplit')) return makeCall(scope, 'read_file', { surrogateSplit: true });
  if (ctx.take('bigCreate')) return makeCall(scope, 'create_file', { bigContent: true });
  if (ctx.take('danglingParent')) return makeCall(scope, 'grep_search', { danglingParent: true });
  return undefined;
}

interface CallOptions {
  agentName?: string;
  forceNested?: boolean;
  hookError?: boolean;
  surrogateSplit?: boolean;
  bigContent?: boolean;
  danglingParent?: boolean;
}

function makeCall(scope: AgentScope, kind: ToolKind, o: CallOptions): PlannedCall {
  const { ctx } = scope;
  const { rng } = ctx;
  const callId = scope.model.startsWith('claude') ? `toolu_${rng.hex(24)}` : `call_${rng.hex(16)}`;
  if (kind === 'runSubagent' || kind === 'search_subagent') {
    // Depth 3 is the deepest nesting we write; deeper subagents degrade to a plain search.
    if (scope.depth >= 2 && !o.agentName) return makeCall(scope, 'grep_search', o);
    const search = kind === 'search_subagent';
    const agentName = o.agentName ?? (search ? 'search' : rng.pick(['Explore', 'Explore', 'Planner', 'Reviewer', 'default']));
    const prompt = search ? `Find where ${identifier(rng)} is defined and who calls it.` : userPrompt(rng, ctx.plan.lang);
    const args = search
      ? JSON.stringify({ query: prompt, description: 'Locate definitions' })
      : JSON.stringify({ agentName, description: `Investigate ${identifier(rng)}`, prompt });
    return {
      kind,
      callId,
      name: kind,
      args,
      danglingParent: false,
      subagent: { label: search ? 'searchSubagent' : `runSubagent-${agentName}`, agentName, prompt, forceNested: !!o.forceNested, hookError: !!o.hookError },
    };
  }
  const outcome = simpleTool({ rng, ws: ctx.plan.ws }, kind as SimpleToolKind, { surrogateSplit: o.surrogateSplit, bigContent: o.bigContent });
  return { kind, callId, name: outcome.name, args: outcome.args, outcome, danglingParent: !!o.danglingParent };
}

function emitResponse(scope: AgentScope, chatSpanId: string, calls: PlannedCall[]): string {
  const { ctx } = scope;
  const { rng } = ctx;
  const lang = ctx.plan.lang;
  let text = '';
  if (calls.length === 0) {
    text = scope.isMain && ctx.take('longResponse') ? longAssistantText(rng, lang, 5200) : rng.chance(0.004) ? longAssistantText(rng, lang, 5100) : assistantText(rng, lang, rng.int(1, 2));
  } else if (rng.chance(0.35)) {
    text = assistantText(rng, lang, 1); // otherwise the response holds only tool_call parts (FORMAT §7.20)
  }
  const message = assistantMessage(text, calls);
  const a = new Attrs().str('response', truncateAttr('[' + message + ']', ctx.attrLimit));
  if (scope.model !== 'gpt-4.1' && rng.chance(0.2)) a.str('reasoning', `I should look at ${repoFile(rng)} before changing ${identifier(rng)}.`);
  scope.file.write({ ts: ctx.clock, dur: 0, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${chatSpanId}`, parentSpanId: scope.agentSpan, status: 'ok', attrs: a.toString() });
  scope.history.add(message);
  return text;
}

function runCalls(scope: AgentScope, calls: PlannedCall[]): void {
  if (calls.length === 0) return;
  const { ctx } = scope;
  const hooks = ctx.plan.ws.hooks || scope.hookError;
  if (calls.length > 1) {
    // Parallel read-only calls: hooks run first, the spans overlap, lines are written as each one finishes.
    if (hooks) for (const c of calls) emitHook(scope, 'PreToolUse', c.name);
    const base = ctx.clock;
    const done = calls.map((c, k) => ({ c, start: base + k * ctx.rng.int(0, 3), spanId: ctx.spanId() }));
    done.sort((x, y) => x.start + x.c.outcome!.dur - (y.start + y.c.outcome!.dur));
    let end = base;
    for (const d of done) {
      emitToolLine(scope, d.c, d.c.outcome!, d.start, d.spanId);
      end = Math.max(end, d.start + d.c.outcome!.dur);
    }
    ctx.clock = end;
    if (hooks) for (const c of calls) emitHook(scope, 'PostToolUse', c.name);
  } else {
    const c = calls[0];
    if (hooks) emitHook(scope, 'PreToolUse', c.name);
    if (c.subagent) runSubagentTool(scope, c);
    else {
      const start = ctx.clock;
      emitToolLine(scope, c, c.outcome!, start, ctx.spanId());
      ctx.clock = start + c.outcome!.dur;
    }
    if (hooks) emitHook(scope, 'PostToolUse', c.name);
  }
  for (const c of calls) scope.history.add(toolResultMessage(c.callId, c.outcome?.result ?? c.outcome?.error ?? ''));
}

function emitToolLine(scope: AgentScope, call: PlannedCall, outcome: ToolOutcome, start: number, spanId: string): void {
  const { ctx } = scope;
  const a = new Attrs().str('args', truncateAttr(outcome.args, ctx.attrLimit));
  if (outcome.result !== undefined) a.str('result', truncateAttr(outcome.result, ctx.attrLimit));
  if (outcome.error !== undefined) a.str('error', outcome.error);
  scope.file.write({
    ts: start,
    dur: outcome.dur,
    type: 'tool_call',
    name: ctx.plan.variantNames ? `tool:${outcome.name}` : outcome.name,
    spanId,
    // A span evicted from the logger's 10k parent map: the parent id points at nothing (FORMAT §7.29).
    parentSpanId: call.danglingParent ? ctx.spanId() : scope.agentSpan,
    status: outcome.error !== undefined ? 'error' : 'ok',
    attrs: a.toString(),
  });
}

export function emitHook(scope: AgentScope, hookType: 'PreToolUse' | 'PostToolUse' | 'Stop', toolName?: string): void {
  const { ctx } = scope;
  const { rng } = ctx;
  const dur = rng.chance(0.003) ? rng.int(5001, 12000) : ms(ctx, 45, 0.7); // a hook script that hangs now and then
  let kind: 'success' | 'non_blocking_error' | 'error' = rng.weighted([['success', 95], ['non_blocking_error', 4], ['error', 1]] as const);
  if (scope.hookError) {
    kind = 'non_blocking_error';
    scope.hookError = false;
  }
  const input = toolName ? `{"hookEventName":"${hookType}","toolName":"${toolName}"}` : `{"hookEventName":"${hookType}"}`;
  const a = new Attrs()
    .str('command', hookType === 'Stop' ? 'node .github/hooks/stop.js' : '.github/hooks/guard.sh')
    .str('input', input)
    .str('output', kind === 'success' ? (hookType === 'PreToolUse' ? '{"decision":"allow"}' : '') : 'exit status 1')
    .str('resultKind', kind);
  if (kind !== 'success') a.str('error', kind === 'error' ? 'Hook blocked the tool call: guard.sh exited with 2' : 'guard.sh: line 12: jq: command not found');
  scope.file.write({ ts: ctx.clock, dur, type: 'hook', name: hookType, spanId: ctx.spanId(), parentSpanId: scope.agentSpan, status: kind === 'error' ? 'error' : 'ok', attrs: a.toString() });
  ctx.tick(dur);
}

/**
 * runSubagent / search_subagent: the child_session_ref goes into *this* agent's file when the child is created
 * (parentSpanId = the tool span), the child log gets session_start, its own loop and finally the `subagent`
 * entry (the invoke_agent span ends last); the tool_call line is written after all of that with ts = its start.
 */
function runSubagentTool(scope: AgentScope, call: PlannedCall): void {
  const { ctx } = scope;
  const { rng, plan } = ctx;
  const sub = call.subagent!;
  const toolSpan = ctx.spanId();
  const start = ctx.clock;
  ctx.tick(rng.int(5, 40));
  const childId = rng.uuid();
  const child = ctx.openChild(sub.label, childId);
  if (scope.depth >= 1) ctx.nestedChildIds.push(childId);
  const refAttrs = new Attrs().str('childSessionId', childId).str('childLogFile', `${child.path.slice(ctx.dir.length + 1)}`).str('label', sub.label);
  scope.file.write({ ts: ctx.clock, dur: 0, type: 'child_session_ref', name: sub.label, spanId: `child-ref-${childId}`, parentSpanId: ctx.lvs ? toolSpan : undefined, status: 'ok', attrs: refAttrs.toString() });
  if (ctx.lvs) {
    const ss = new Attrs().str('copilotVersion', plan.copilotVersion).str('vscodeVersion', plan.vscodeVersion).str('parentSessionId', scope.file.sessionId).str('label', sub.label);
    child.write({ v: 1, ts: ctx.clock, dur: 0, type: 'session_start', name: 'session_start', spanId: `session-start-${childId}`, status: 'ok', attrs: ss.toString() });
  }
  ctx.tick(rng.int(1, 5));
  const agentSpan = ctx.spanId();
  const agentStart = ctx.clock;
  const remaining = Math.max(0, plan.budget - ctx.bytes());
  const childBudget = Math.max(2500, Math.min(rng.logNormal(9000, 0.7), remaining * 0.4));
  const childScope: AgentScope = {
    ctx,
    file: child,
    agentSpan,
    agentParent: toolSpan,
    isMain: false,
    depth: scope.depth + 1,
    history: new History(ctx.plan.historyBudget),
    model: scope.model,
    userRequest: sub.prompt,
    byteLimit: ctx.bytes() + childBudget,
    forceNested: sub.forceNested,
    hookError: sub.hookError,
  };
  childScope.history.add(userMessage(sub.prompt));
  child.write({ ts: ctx.clock, dur: 0, type: 'user_message', name: 'user_message', spanId: agentSpan, parentSpanId: toolSpan, status: 'ok', attrs: new Attrs().str('content', truncateAttr(sub.prompt, ctx.attrLimit)).toString() });
  const result = runToolLoop(childScope, rng.int(2, 6));
  const sa = new Attrs().str('agentName', sub.agentName).str('description', truncateAttr(`Investigate ${identifier(rng)} for the parent agent`, ctx.attrLimit));
  if (result.failed) sa.str('error', 'Subagent request failed');
  child.write({ ts: agentStart, dur: ctx.clock - agentStart, type: 'subagent', name: sub.agentName, spanId: agentSpan, parentSpanId: toolSpan, status: result.failed ? 'error' : 'ok', attrs: sa.toString() });
  ctx.closeChild(child);
  ctx.tick(rng.int(2, 20));
  const outcome: ToolOutcome = result.failed
    ? { name: call.name, args: call.args, error: 'Subagent failed: the language model request failed', dur: ctx.clock - start }
    : { name: call.name, args: call.args, result: result.text || 'The subagent finished without a summary.', dur: ctx.clock - start };
  call.outcome = outcome;
  emitToolLine(scope, call, outcome, start, toolSpan);
}
