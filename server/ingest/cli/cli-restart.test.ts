// A restart in the middle of a Copilot CLI session: a line with no parent of its own hangs under its agent's
// current user message or model call (link-cli.ts), which only earlier lines tell. Read in two parts, by two
// indexers, at every line boundary, the session must get the very tree one uninterrupted read gives it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureDb } from '../../test-support/fixture-db';
import { cliLines, mainSession, MAIN, uuid } from './cli-fixture';

const S = uuid(51, 'e');
const A = 'agent-explore-7';
const B = 'agent-plan-8';

/**
 * Two subagents one after the other, whose turn starts, model calls and tools name no parent (they hang under
 * the agent's current model call, or the spawning tool), and main-agent tools after them that must hang under
 * the main agent's model call, not the subagent's latest one.
 */
function twoAgentSession(): string {
  return cliLines(S, [
    { at: 0, type: 'session.start', data: { sessionId: S, copilotVersion: '1.0.3', context: { cwd: '/home/dev/app' } } },
    { at: 100, type: 'user.message', data: { content: 'Plan the refactor', turnId: '0' } },
    { at: 200, type: 'assistant.turn_start', data: { turnId: '0' } },
    { at: 300, type: 'assistant.message', data: { messageId: 'm1', content: '', model: 'gpt-5', outputTokens: 10, turnId: '0' } },
    { at: 400, type: 'tool.execution_start', data: { toolCallId: 'call_a', toolName: 'task', arguments: { agent_type: 'explore' }, turnId: '0' } },
    { at: 410, type: 'subagent.started', data: { toolCallId: 'call_a', agentName: 'explore' } },
    { at: 420, type: 'assistant.turn_start', agentId: A, data: { turnId: '0' } },
    { at: 500, type: 'assistant.message', agentId: A, data: { messageId: 'a1', content: 'Looking.', model: 'claude-haiku-4.5', outputTokens: 5, turnId: '0' } },
    { at: 510, type: 'tool.execution_start', agentId: A, data: { toolCallId: 'call_a_view', toolName: 'view', arguments: { path: '/home/dev/app/a.ts' }, turnId: '0' } },
    { at: 520, type: 'tool.execution_complete', agentId: A, data: { toolCallId: 'call_a_view', success: true, result: { content: 'a' }, turnId: '0' } },
    { at: 530, type: 'assistant.message', agentId: A, data: { messageId: 'a2', content: 'Done.', model: 'claude-haiku-4.5', outputTokens: 3, turnId: '0' } },
    { at: 540, type: 'tool.execution_start', agentId: A, data: { toolCallId: 'call_a_grep', toolName: 'grep', arguments: { pattern: 'x' }, turnId: '0' } },
    { at: 550, type: 'tool.execution_complete', agentId: A, data: { toolCallId: 'call_a_grep', success: true, result: { content: '' }, turnId: '0' } },
    { at: 560, type: 'assistant.turn_end', agentId: A, data: { turnId: '0' } },
    { at: 600, type: 'subagent.completed', data: { toolCallId: 'call_a', agentName: 'explore', durationMs: 190 } },
    { at: 610, type: 'tool.execution_complete', data: { toolCallId: 'call_a', success: true, result: { content: 'found' }, turnId: '0' } },
    { at: 700, type: 'assistant.message', data: { messageId: 'm2', content: '', model: 'gpt-5', outputTokens: 12, turnId: '0' } },
    { at: 710, type: 'tool.execution_start', data: { toolCallId: 'call_b', toolName: 'task', arguments: { agent_type: 'plan' }, turnId: '0' } },
    { at: 720, type: 'subagent.started', data: { toolCallId: 'call_b', agentName: 'plan' } },
    { at: 730, type: 'assistant.turn_start', agentId: B, data: { turnId: '0' } },
    { at: 800, type: 'assistant.message', agentId: B, data: { messageId: 'b1', content: 'Planning.', model: 'claude-haiku-4.5', outputTokens: 4, turnId: '0' } },
    { at: 810, type: 'tool.execution_start', agentId: B, data: { toolCallId: 'call_b_view', toolName: 'view', arguments: { path: '/home/dev/app/b.ts' }, turnId: '0' } },
    { at: 820, type: 'tool.execution_complete', agentId: B, data: { toolCallId: 'call_b_view', success: false, error: { message: 'ENOENT' }, turnId: '0' } },
    { at: 830, type: 'assistant.turn_end', agentId: B, data: { turnId: '0' } },
    { at: 900, type: 'subagent.failed', data: { toolCallId: 'call_b', agentName: 'plan', error: 'gave up' } },
    { at: 910, type: 'tool.execution_complete', data: { toolCallId: 'call_b', success: false, error: { message: 'subagent failed' }, turnId: '0' } },
    // the main agent again: its tool hangs under its own latest model call (m2), not under b1
    { at: 1000, type: 'tool.execution_start', data: { toolCallId: 'call_bash', toolName: 'bash', arguments: { command: 'npm test' }, turnId: '0' } },
    { at: 1100, type: 'tool.execution_complete', data: { toolCallId: 'call_bash', success: true, result: { content: 'ok' }, turnId: '0' } },
    { at: 1200, type: 'assistant.turn_end', data: { turnId: '0' } },
    { at: 2000, type: 'user.message', data: { content: 'Go on', turnId: '1' } },
    { at: 2100, type: 'assistant.turn_start', data: { turnId: '1' } },
    { at: 2200, type: 'assistant.message', data: { messageId: 'm3', content: 'Done', model: 'gpt-5', outputTokens: 2, turnId: '1' } },
    { at: 2300, type: 'assistant.turn_end', data: { turnId: '1' } },
  ]);
}

interface Placed {
  type: string;
  span: string | null;
  parent: string | null;
  ts: number | null;
  dur: number;
  name: string | null;
}

/** Every event of the session in line order, with what linking decides for it. */
async function treeRead(sessionId: string, text: string, cut: number | null): Promise<Placed[]> {
  const lines = text.split('\n').filter((l) => l !== '');
  const first = cut === null ? lines : lines.slice(0, cut);
  const fx = await fixtureDb({}, { cli: { [`${sessionId}/events.jsonl`]: first.join('\n') + '\n' } });
  try {
    if (cut !== null) {
      fs.appendFileSync(path.join(fx.sessionStateDir, sessionId, 'events.jsonl'), lines.slice(cut).join('\n') + '\n');
      await fx.reindex(); // a new indexer: nothing of the first read in memory
    }
    return fx.db
      .prepare('SELECT e.type, e.span_id span, e.parent_span_id parent, e.ts, e.dur, e.name FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ? ORDER BY e.id')
      .all(sessionId) as Placed[];
  } finally {
    fx.cleanup();
  }
}

describe('a CLI session read in two parts, split at every line boundary', () => {
  for (const [name, id, text] of [
    ['two subagents, then the main agent again', S, twoAgentSession()],
    ['the main fixture session (a subagent, hooks, a compaction)', MAIN, mainSession()],
  ] as const) {
    it(`${name}: the same parent for every event as one read`, async () => {
      const whole = await treeRead(id, text, null);
      const n = text.split('\n').filter((l) => l !== '').length;
      expect(whole.length).toBeGreaterThan(20);
      const differing: { cut: number; at: number; one: Placed; two: Placed }[] = [];
      for (let cut = 1; cut < n; cut++) {
        const split = await treeRead(id, text, cut);
        expect(split.length, `cut ${cut}`).toBe(whole.length);
        split.forEach((e, i) => {
          if (JSON.stringify(e) !== JSON.stringify(whole[i])) differing.push({ cut, at: i, one: whole[i], two: e });
        });
      }
      expect(differing).toEqual([]);
    });
  }

  it('places the main agent tool after a subagent under the main model call', async () => {
    const whole = await treeRead(S, twoAgentSession(), null);
    const parentOf = (span: string) => whole.find((e) => e.span === span && e.type === 'tool_call')?.parent;
    expect(parentOf('call_bash')).toBe(`${S.slice(0, 8)}-0000-4000-9000-000000000017`); // m2's line id
    expect(parentOf('call_a_grep')).toBe(`${S.slice(0, 8)}-0000-4000-9000-000000000011`); // a2
  });
});
