// Hand-written Copilot CLI sessions (INTEROP §3), as the CLI writes them: UUID ids, ISO timestamps, each line's
// parentId the previous line, agentId on a subagent's lines. Used by the CLI ingest tests.

/** UUIDs that say what they are: `uuid(7)` → 00000000-0000-4000-8000-000000000007. */
export const uuid = (n: number, prefix = '0'): string => `${prefix.repeat(8)}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const MAIN = uuid(1, 'a');
export const CRASHED = uuid(2, 'b');
export const DETACHED = uuid(3, 'c');

export const T0 = Date.parse('2026-11-30T09:00:00.000Z');

interface Ev {
  type: string;
  data: Record<string, unknown>;
  at: number;
  agentId?: string;
}

/** Writes events as JSONL with ids and the parentId chain the CLI writes. */
export function cliLines(session: string, events: Ev[]): string {
  let previous: string | null = null;
  let out = '';
  events.forEach((e, i) => {
    const id = `${session.slice(0, 8)}-0000-4000-9000-${String(i + 1).padStart(12, '0')}`;
    const line: Record<string, unknown> = { type: e.type, data: e.data, id, timestamp: new Date(T0 + e.at).toISOString(), parentId: previous };
    if (e.agentId) line.agentId = e.agentId;
    out += JSON.stringify(line) + '\n';
    previous = id;
  });
  return out;
}

/** The string only one tool result holds, for the search acceptance test. */
export const RESULT_NEEDLE = 'flakyRetryBudgetExceeded';

const ctx = { cwd: '/home/dev/uploader', gitRoot: '/home/dev/uploader', branch: 'fix/retry', repository: 'octo/uploader', headCommit: 'abc1234' };

/**
 * A finished session: two user turns, a tool that succeeds, one that fails, a subagent (task tool) whose own
 * model call and tool call sit under the tool that spawned it, a hook, a compaction, a model change, an error,
 * a usage checkpoint and the shutdown with its totals. Then one garbage line and one line without `data`.
 */
export function mainSession(): string {
  const agent = 'agent-explore-1';
  return (
    cliLines(MAIN, [
      { at: 0, type: 'session.start', data: { sessionId: MAIN, copilotVersion: '1.0.3', startTime: new Date(T0).toISOString(), selectedModel: 'claude-sonnet-4.5', context: ctx } },
      { at: 1000, type: 'user.message', data: { content: 'Fix the retry loop in the uploader', transformedContent: 'Fix the retry loop in the uploader', attachments: [], agentMode: 'interactive', interactionId: 'i1', turnId: '0' } },
      { at: 1100, type: 'assistant.turn_start', data: { turnId: '0', interactionId: 'i1' } },
      { at: 3100, type: 'assistant.message', data: { messageId: 'm1', content: 'Let me read the file.', model: 'claude-sonnet-4.5', outputTokens: 120, toolRequests: [{ toolCallId: 'call_read', name: 'view' }], turnId: '0', apiCallId: 'api1' } },
      { at: 3200, type: 'tool.execution_start', data: { toolCallId: 'call_read', toolName: 'view', arguments: { path: '/home/dev/uploader/src/retry.ts' }, turnId: '0' } },
      { at: 3260, type: 'tool.execution_complete', data: { toolCallId: 'call_read', success: true, result: { content: `export function retry() { throw new Error("${RESULT_NEEDLE}") }` }, turnId: '0' } },
      { at: 3300, type: 'tool.execution_start', data: { toolCallId: 'call_test', toolName: 'bash', arguments: { command: 'npm test' }, turnId: '0' } },
      { at: 8300, type: 'tool.execution_complete', data: { toolCallId: 'call_test', success: false, error: { message: 'Command failed with exit code 1' }, turnId: '0' } },
      { at: 8400, type: 'assistant.turn_end', data: { turnId: '0' } },
      { at: 9000, type: 'assistant.turn_start', data: { turnId: '1', interactionId: 'i1' } },
      { at: 10000, type: 'assistant.message', data: { messageId: 'm2', content: '', model: 'claude-sonnet-4.5', outputTokens: 40, toolRequests: [{ toolCallId: 'call_task', name: 'task' }], turnId: '1' } },
      { at: 10100, type: 'tool.execution_start', data: { toolCallId: 'call_task', toolName: 'task', arguments: { agent_type: 'explore', prompt: 'Find callers of retry' }, turnId: '1' } },
      { at: 10150, type: 'subagent.started', data: { toolCallId: 'call_task', agentName: 'explore', agentDescription: 'Explores the code', model: 'claude-haiku-4.5' } },
      { at: 10200, type: 'assistant.turn_start', agentId: agent, data: { turnId: '0' } },
      { at: 11200, type: 'assistant.message', agentId: agent, data: { messageId: 's1', content: 'Searching.', model: 'claude-haiku-4.5', outputTokens: 15, parentToolCallId: 'call_task', turnId: '0' } },
      { at: 11300, type: 'tool.execution_start', agentId: agent, data: { toolCallId: 'call_grep', toolName: 'grep', arguments: { pattern: 'retry(' }, parentToolCallId: 'call_task', turnId: '0' } },
      { at: 11350, type: 'tool.execution_complete', agentId: agent, data: { toolCallId: 'call_grep', success: true, result: { content: 'src/upload.ts:12: retry()' }, parentToolCallId: 'call_task', turnId: '0' } },
      { at: 12000, type: 'subagent.completed', data: { toolCallId: 'call_task', agentName: 'explore', durationMs: 1850, totalTokens: 900, totalToolCalls: 1 } },
      { at: 12050, type: 'tool.execution_complete', data: { toolCallId: 'call_task', success: true, result: { content: 'upload.ts calls retry once' }, turnId: '1' } },
      { at: 12100, type: 'assistant.turn_end', data: { turnId: '1' } },
      { at: 13000, type: 'hook.start', data: { hookInvocationId: 'h1', hookType: 'postToolUse', input: { toolName: 'bash' } } },
      { at: 13040, type: 'hook.end', data: { hookInvocationId: 'h1', hookType: 'postToolUse', success: true, output: 'ok' } },
      { at: 14000, type: 'session.model_change', data: { previousModel: 'claude-sonnet-4.5', newModel: 'gpt-5' } },
      { at: 15000, type: 'session.compaction_start', data: {} },
      { at: 15500, type: 'session.compaction_complete', data: { success: true, tokensRemoved: 5000, summaryContent: 'Summary of the retry work' } },
      { at: 16000, type: 'session.error', data: { errorType: 'rate_limit', message: 'Rate limit exceeded, retrying in 5s', statusCode: 429 } },
      { at: 17000, type: 'session.usage_checkpoint', data: { totalNanoAiu: 1500000000, totalPremiumRequests: 1 } },
      {
        at: 18000,
        type: 'session.shutdown',
        data: {
          modelMetrics: {
            'claude-sonnet-4.5': { requests: { count: 2, cost: 2 }, usage: { inputTokens: 9000, outputTokens: 160, cacheReadTokens: 4000, cacheWriteTokens: 0, reasoningTokens: 0 }, totalNanoAiu: 2000000000 },
            'claude-haiku-4.5': { requests: { count: 1, cost: 0.33 }, usage: { inputTokens: 1000, outputTokens: 15, cacheReadTokens: 500, cacheWriteTokens: 0, reasoningTokens: 0 }, totalNanoAiu: 300000000 },
          },
          totalApiDurationMs: 4000,
          totalNanoAiu: 2300000000,
          totalPremiumRequests: 2,
          codeChanges: { linesAdded: 3, linesRemoved: 1, filesModified: ['src/retry.ts'] },
        },
      },
    ]) +
    'not json at all\n' +
    JSON.stringify({ type: 'session.info', id: uuid(99), timestamp: new Date(T0 + 19000).toISOString() }) +
    '\n'
  );
}

/**
 * A resumed session that crashed: a first run, a `session.resume`, a tool started and never completed, no
 * shutdown, and a last line cut in the middle (no newline).
 */
export function crashedSession(): string {
  return (
    cliLines(CRASHED, [
      { at: 0, type: 'session.start', data: { sessionId: CRASHED, copilotVersion: '1.0.2', selectedModel: 'gpt-5', context: { cwd: '/home/dev/api' } } },
      { at: 500, type: 'user.message', data: { content: 'Run the migrations', turnId: '0' } },
      { at: 600, type: 'assistant.turn_start', data: { turnId: '0' } },
      { at: 1600, type: 'assistant.message', data: { messageId: 'c1', content: 'Running them.', model: 'gpt-5', outputTokens: 30, turnId: '0' } },
      { at: 60000, type: 'session.resume', data: { resumeTime: new Date(T0 + 60000).toISOString(), eventCount: 4 } },
      { at: 61000, type: 'user.message', data: { content: 'Continue', turnId: '1' } },
      { at: 61100, type: 'assistant.turn_start', data: { turnId: '1' } },
      { at: 62100, type: 'assistant.message', data: { messageId: 'c2', content: '', model: 'gpt-5', outputTokens: 25, turnId: '1' } },
      { at: 62200, type: 'tool.execution_start', data: { toolCallId: 'call_migrate', toolName: 'bash', arguments: { command: 'npm run migrate' }, turnId: '1' } },
    ]) + '{"type":"tool.execution_complete","data":{"toolCallId":"call_mig'
  );
}

/** A session started from MAIN and detached from it (`detachedFromSpawningParentSessionId`). */
export function detachedSession(): string {
  return cliLines(DETACHED, [
    { at: 20000, type: 'session.start', data: { sessionId: DETACHED, copilotVersion: '1.0.3', detachedFromSpawningParentSessionId: MAIN, context: ctx } },
    { at: 20500, type: 'user.message', data: { content: 'Write the changelog', turnId: '0' } },
  ]);
}

export const WORKSPACE_YAML = `id: ${MAIN}\ncwd: /home/dev/uploader\nsummary_count: 0\ncreated_at: 2026-11-30T09:00:00.000Z\nupdated_at: 2026-11-30T09:00:18.000Z\n`;
export const VSCODE_METADATA = JSON.stringify({ workspaceFolder: '/home/dev/uploader', repository: 'octo/uploader', customTitle: 'Retry loop fix' });

/** The tree the tests index: these three CLI sessions (fixtureDb's `cli` option). */
export function cliTree(): Record<string, string> {
  return {
    [`${MAIN}/events.jsonl`]: mainSession(),
    [`${MAIN}/workspace.yaml`]: WORKSPACE_YAML,
    [`${MAIN}/vscode.metadata.json`]: VSCODE_METADATA,
    [`${MAIN}/checkpoints/index.md`]: '# not read',
    [`${CRASHED}/events.jsonl`]: crashedSession(),
    [`${CRASHED}/workspace.yaml`]: `id: ${CRASHED}\ncwd: /home/dev/api\n`,
    [`${DETACHED}/events.jsonl`]: detachedSession(),
  };
}
