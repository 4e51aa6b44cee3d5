// The CLI half of the manifest is an oracle too (issue 20's acceptance: events per session = envelope-valid lines,
// output tokens = a jq sum over assistant.message), so it is checked against a naive reader of the files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, type CorpusManifest } from './generate';

interface CliEvent {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  agentId?: string;
  data: Record<string, unknown>;
}

/** INTEROP §3: a line is an event when type, id and timestamp are strings and data is an object. */
function isEvent(v: unknown): v is CliEvent {
  if (v === null || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return typeof e.type === 'string' && typeof e.id === 'string' && typeof e.timestamp === 'string' && e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data);
}

function readEvents(file: string): { events: CliEvent[]; lines: number; notEvents: number; partialTail: boolean } {
  const text = fs.readFileSync(file, 'utf8');
  const parts = text.split('\n');
  const tail = parts.pop()!;
  const events: CliEvent[] = [];
  let notEvents = 0;
  for (const line of parts) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      notEvents++;
      continue;
    }
    if (isEvent(v)) events.push(v);
    else notEvents++;
  }
  return { events, lines: parts.length, notEvents, partialTail: tail !== '' };
}

let outDir: string;
let manifest: CorpusManifest;
const read = new Map<string, ReturnType<typeof readEvents>>();
const eventsOf = (id: string) => read.get(id)!.events;

beforeAll(async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-corpus-test-'));
  manifest = await generateCorpus({ outDir, seed: 42, targetBytes: 2 * 1024 * 1024 });
  for (const s of manifest.cli.sessions) read.set(s.sessionId, readEvents(s.eventsFile));
});

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('CLI sessions on disk (INTEROP §3)', () => {
  it('lists exactly the session folders under .copilot/session-state, each with events.jsonl and workspace.yaml', () => {
    const state = path.join(outDir, '.copilot', 'session-state');
    expect(manifest.cli.home).toBe(path.join(outDir, '.copilot'));
    expect(manifest.cli.sessions.map((s) => s.sessionId).sort()).toEqual(fs.readdirSync(state).sort());
    for (const s of manifest.cli.sessions) {
      expect(fs.existsSync(path.join(state, s.sessionId, 'events.jsonl'))).toBe(true);
      const yaml = fs.readFileSync(path.join(state, s.sessionId, 'workspace.yaml'), 'utf8');
      expect(yaml.startsWith(`id: ${s.sessionId}\ncwd: ${s.cwd}\n`)).toBe(true);
      expect(yaml).toMatch(/\nsummary_count: \d+\ncreated_at: \S+\nupdated_at: \S+\n$/);
      expect(fs.existsSync(path.join(state, s.sessionId, 'vscode.metadata.json'))).toBe(s.hasVscodeMetadata);
    }
  });

  it('has per-session events, lines, bad lines, partial tail, bytes and output tokens equal to the reader', () => {
    for (const s of manifest.cli.sessions) {
      const r = read.get(s.sessionId)!;
      const jqOutputTokens = r.events.filter((e) => e.type === 'assistant.message').reduce((sum, e) => sum + (e.data.outputTokens as number), 0);
      expect({ events: s.events, lines: s.completeLines, bad: s.badLines, partial: s.partialTail, bytes: s.bytes, tokens: s.outputTokens }).toEqual({
        events: r.events.length,
        lines: r.lines,
        bad: r.notEvents,
        partial: r.partialTail,
        bytes: fs.statSync(s.eventsFile).size,
        tokens: jqOutputTokens,
      });
      expect(s.outputTokens).toBeGreaterThan(0);
    }
  });

  it('writes the envelope in the CLI key order, parentId = the previous event, agentId only on subagent events', () => {
    for (const s of manifest.cli.sessions) {
      let previous: string | null = null;
      let running: { toolCallId: unknown; agentId?: string } | null = null;
      for (const e of eventsOf(s.sessionId)) {
        expect(Object.keys(e)).toEqual(e.agentId === undefined ? ['type', 'data', 'id', 'timestamp', 'parentId'] : ['type', 'data', 'id', 'timestamp', 'parentId', 'agentId']);
        expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(new Date(e.timestamp).toISOString()).toBe(e.timestamp);
        expect(e.parentId).toBe(previous);
        previous = e.id;
        // Only a running subagent's own events carry agentId (one per subagent); those that name a parent
        // call name the spawning one.
        if (e.type === 'subagent.started') running = { toolCallId: e.data.toolCallId };
        if (e.type === 'subagent.completed' || e.type === 'subagent.failed') running = null;
        if (e.agentId !== undefined) {
          expect(running).not.toBeNull();
          running!.agentId ??= e.agentId;
          expect(e.agentId).toBe(running!.agentId);
        }
        if (e.data.parentToolCallId !== undefined) {
          expect(e.agentId).toBeDefined();
          expect(e.data.parentToolCallId).toBe(running!.toolCallId);
        }
      }
      expect(eventsOf(s.sessionId)[0].type).toBe('session.start');
      expect(eventsOf(s.sessionId)[0].data.sessionId).toBe(s.sessionId);
    }
  });

  it('pairs every tool start with one completion by toolCallId, and counts failures as the files do', () => {
    for (const s of manifest.cli.sessions) {
      const starts = eventsOf(s.sessionId).filter((e) => e.type === 'tool.execution_start');
      const completes = new Map(eventsOf(s.sessionId).filter((e) => e.type === 'tool.execution_complete').map((e) => [e.data.toolCallId, e]));
      expect(completes.size).toBe(starts.length);
      for (const st of starts) expect(completes.has(st.data.toolCallId)).toBe(true);
      const failed = [...completes.values()].filter((c) => c.data.success === false);
      for (const c of failed) expect(typeof (c.data.error as { message: unknown }).message).toBe('string');
      expect({ calls: starts.length, failed: failed.length }).toEqual({ calls: s.toolCalls, failed: s.failedToolCalls });
      const ends = eventsOf(s.sessionId).filter((e) => e.type === 'subagent.completed' || e.type === 'subagent.failed');
      expect({ subagents: ends.length, failed: ends.filter((e) => e.type === 'subagent.failed').length }).toEqual({ subagents: s.subagents, failed: s.failedSubagents });
    }
  });

  it('writes every event type of INTEROP §3 somewhere, MCP tools, failed tools and a failed subagent included', () => {
    const all = manifest.cli.sessions.flatMap((s) => eventsOf(s.sessionId));
    expect([...new Set(all.map((e) => e.type))].sort()).toEqual([
      'assistant.message',
      'assistant.turn_end',
      'assistant.turn_start',
      'hook.end',
      'hook.start',
      'session.compaction_complete',
      'session.compaction_start',
      'session.error',
      'session.model_change',
      'session.resume',
      'session.shutdown',
      'session.start',
      'session.usage_checkpoint',
      'subagent.completed',
      'subagent.failed',
      'subagent.started',
      'tool.execution_complete',
      'tool.execution_start',
      'user.message',
    ]);
    expect(all.some((e) => e.type === 'tool.execution_start' && e.data.mcpServerName === 'github-mcp-server' && typeof e.data.mcpToolName === 'string')).toBe(true);
    expect(manifest.cli.sessions.every((s) => s.failedToolCalls > 0)).toBe(true);
  });

  it('has the notable cases: a crash without shutdown and a cut last line, a resume after a shutdown, a fork', () => {
    const { crashedSessionId, resumedSessionId, fork, subagentSessionId } = manifest.cli.notable;
    const crashed = manifest.cli.sessions.find((s) => s.sessionId === crashedSessionId)!;
    expect({ shutdown: crashed.hasShutdown, partial: crashed.partialTail }).toEqual({ shutdown: false, partial: true });
    expect(eventsOf(crashedSessionId).some((e) => e.type === 'session.shutdown')).toBe(false);

    const types = eventsOf(resumedSessionId).map((e) => e.type);
    const resume = types.indexOf('session.resume');
    expect(types[resume - 1]).toBe('session.shutdown');
    expect(types[types.length - 1]).toBe('session.shutdown');
    expect(eventsOf(resumedSessionId)[resume].data.eventCount).toBe(resume);

    expect(eventsOf(fork.sessionId)[0].data.detachedFromSpawningParentSessionId).toBe(fork.parentId);
    expect(eventsOf(subagentSessionId).filter((e) => e.type === 'subagent.completed').length).toBeGreaterThan(0);
    expect(eventsOf(subagentSessionId).filter((e) => e.type === 'subagent.failed').length).toBeGreaterThan(0);
  });

  it('puts each unique tool-result string in one tool result of its own session and nowhere else in the corpus', () => {
    const texts = manifest.cli.sessions.map((s) => s.uniqueResultText);
    expect(new Set(texts).size).toBe(texts.length);
    const everyFile = [...manifest.cli.sessions.map((s) => s.eventsFile), ...manifest.files.map((f) => f.path)];
    const contents = new Map(everyFile.map((f) => [f, fs.readFileSync(f, 'utf8')]));
    for (const s of manifest.cli.sessions) {
      expect([...contents].filter(([, c]) => c.includes(s.uniqueResultText)).map(([f]) => f)).toEqual([s.eventsFile]);
      const hits = eventsOf(s.sessionId).filter((e) => JSON.stringify(e).includes(s.uniqueResultText));
      expect(hits.map((e) => e.type)).toEqual(['tool.execution_complete']);
      expect((hits[0].data.result as { content: string }).content).toContain(s.uniqueResultText);
    }
  });

  it("writes VS Code's agentHostUsage side file for agent-host sessions: one line per model call, same output tokens", () => {
    const withUsage = manifest.cli.sessions.filter((s) => s.usageFile !== null);
    expect(withUsage.length).toBeGreaterThanOrEqual(2);
    for (const s of withUsage) {
      expect(path.basename(path.dirname(s.usageFile!))).toBe('agentHostUsage');
      expect(path.basename(path.dirname(path.dirname(path.dirname(s.usageFile!))))).toMatch(/^Code/);
      const lines = fs.readFileSync(s.usageFile!, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, number | string>);
      const calls = eventsOf(s.sessionId).filter((e) => e.type === 'assistant.message');
      expect(lines.map((l) => l.turnId)).toEqual(calls.map((c) => c.data.turnId));
      expect(lines.reduce((sum, l) => sum + (l.outputTokens as number), 0)).toBe(s.outputTokens);
      for (let i = 1; i < lines.length; i++) expect(lines[i].totalNanoAiu).toBeGreaterThan(lines[i - 1].totalNanoAiu as number);
    }
    // Both formats: v1 without apiCallId, v2 with it.
    const hasApiCallId = withUsage.map((s) => fs.readFileSync(s.usageFile!, 'utf8').includes('"apiCallId"'));
    expect(new Set(hasApiCallId)).toEqual(new Set([true, false]));
  });

  it('is 10–15% of the corpus bytes', () => {
    const share = manifest.cli.bytes / manifest.bytes;
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.15);
  });
});
