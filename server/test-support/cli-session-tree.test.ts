// The CLI fixtures are what the ingest's tests trust to be "as the CLI writes them", so they are checked here
// against INTEROP §3: one file per event type, every line an event by the envelope rule, the bad lines not.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_FIXTURES_DIR, FIXTURE_ORDER, FIXTURE_SESSION_ID, cliFixtureText, writeCliSessionTree } from './cli-session-tree';

const isEvent = (v: unknown): boolean => {
  if (v === null || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return typeof e.type === 'string' && typeof e.id === 'string' && typeof e.timestamp === 'string' && e.data !== null && typeof e.data === 'object' && !Array.isArray(e.data);
};
const parse = (l: string): unknown => {
  try {
    return JSON.parse(l);
  } catch {
    return undefined;
  }
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-tree-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('CLI event fixtures', () => {
  it('has one file per event type of INTEROP §3, plus bad-lines.jsonl, and nothing else', () => {
    expect(fs.readdirSync(CLI_FIXTURES_DIR).sort()).toEqual([...FIXTURE_ORDER.map((t) => `${t}.jsonl`), 'bad-lines.jsonl'].sort());
    for (const t of FIXTURE_ORDER) {
      const events = cliFixtureText(t).trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string });
      expect(events.some((e) => e.type === t)).toBe(true);
    }
  });

  it('writes every line of an event fixture as an event, in the CLI key order', () => {
    for (const t of FIXTURE_ORDER) {
      const text = cliFixtureText(t);
      expect(text.endsWith('\n')).toBe(true);
      for (const l of text.trimEnd().split('\n')) {
        const e = JSON.parse(l) as Record<string, unknown>;
        expect(isEvent(e)).toBe(true);
        expect(Object.keys(e)).toEqual(e.agentId === undefined ? ['type', 'data', 'id', 'timestamp', 'parentId'] : ['type', 'data', 'id', 'timestamp', 'parentId', 'agentId']);
        expect(l).toBe(JSON.stringify(e)); // compact, as JSON.stringify writes
      }
    }
  });

  it('bad-lines.jsonl: one event, then missing id, data a string, not JSON, data an array, numeric timestamp, a cut last line', () => {
    const text = cliFixtureText('bad-lines');
    const lines = text.split('\n');
    const tail = lines.pop()!;
    expect(lines.map((l) => isEvent(parse(l)))).toEqual([true, false, false, false, false, false]);
    expect(tail.length).toBeGreaterThan(0);
    expect(parse(tail)).toBeUndefined();
  });
});

describe('writeCliSessionTree', () => {
  it('writes one coherent session: its id in session.start, parentId the previous event, every tool start completed once', () => {
    const [file] = writeCliSessionTree(tmp, [{ id: 'aaaaaaaa-1111-4222-8333-444444444444' }]);
    const events = fs.readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; id: string; parentId: string | null; data: Record<string, unknown> });
    expect(events[0].data.sessionId).toBe('aaaaaaaa-1111-4222-8333-444444444444');
    expect(events.filter((e) => e.type === 'session.start').length).toBe(1);
    events.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : events[i - 1].id));
    const starts = events.filter((e) => e.type === 'tool.execution_start').map((e) => e.data.toolCallId).sort();
    const completes = events.filter((e) => e.type === 'tool.execution_complete').map((e) => e.data.toolCallId).sort();
    expect(completes).toEqual(starts);
    expect(starts.length).toBe(6);
    expect(events.filter((e) => e.type === 'assistant.message').reduce((s, e) => s + (e.data.outputTokens as number), 0)).toBe(118);
    expect(events.length).toBe(35); // the 36 fixture events but the fork's session.start
    expect(fs.readFileSync(path.join(tmp, 'session-state', 'aaaaaaaa-1111-4222-8333-444444444444', 'workspace.yaml'), 'utf8')).toContain('id: aaaaaaaa-1111-4222-8333-444444444444\ncwd: /home/dev/code/platform\n');
  });

  it('gives two sessions distinct event ids, and can leave out the shutdown and end in bad lines', () => {
    const [a, b] = writeCliSessionTree(tmp, [{ id: 'bbbbbbbb-1111-4222-8333-444444444444' }, { id: 'cccccccc-1111-4222-8333-444444444444', noShutdown: true, badLines: true }]);
    const ids = (f: string) => fs.readFileSync(f, 'utf8').split('\n').map(parse).filter(isEvent).map((e) => (e as { id: string }).id);
    expect(ids(a).filter((id) => ids(b).includes(id))).toEqual([]);
    const text = fs.readFileSync(b, 'utf8');
    expect(text.includes('"session.shutdown"')).toBe(false);
    expect(text.endsWith(cliFixtureText('bad-lines'))).toBe(true);
    expect(JSON.parse(fs.readFileSync(path.join(CLI_FIXTURES_DIR, 'session.start.jsonl'), 'utf8').split('\n')[1]).data.detachedFromSpawningParentSessionId).toBe(FIXTURE_SESSION_ID);
  });
});
