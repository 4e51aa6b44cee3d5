import { describe, expect, it } from 'vitest';
import type { SearchGroup, SearchResponse, SearchSession } from '../../../../shared/api';
import { assembleGroups, flatRows, groupKey } from './result-groups';

const session = (id: string): SearchSession => ({
  id,
  title: id,
  repository: 'r',
  branch: null,
  source: 'vscode',
  lastActivity: null,
  eventCount: 1,
  kinds: [],
  subagentHits: 0,
  score: 1,
  hits: [],
});
const group = (repository: string | null, ids: string[], more: number, nextCursor: string | null): SearchGroup => ({
  repository,
  sessionCount: ids.length + more,
  sessions: ids.map(session),
  more,
  nextCursor,
});
const page = (g: SearchGroup) => ({ groups: [g] }) as unknown as SearchResponse;

describe('assembling groups with their "…and N more" pages', () => {
  it('appends pages in order, skipping a session already shown, and takes more/cursor from the last page', () => {
    const overview = [group('a', ['1', '2'], 3, 'c1'), group(null, ['9'], 0, null)];
    const out = assembleGroups(overview, new Map([[groupKey('a'), { pages: [page(group('a', ['2', '3', '4'], 1, 'c2'))] }]]));
    expect(out[0]).toMatchObject({ repository: 'a', more: 1, nextCursor: 'c2', loadingMore: false });
    expect(out[0].sessions.map((s) => s.id)).toEqual(['1', '2', '3', '4']);
    expect(flatRows(out).map((s) => s.id)).toEqual(['1', '2', '3', '4', '9']);
  });

  it('a page still loading shows as loadingMore', () => {
    const out = assembleGroups([group('a', ['1'], 5, 'c1')], new Map([[groupKey('a'), { pages: [undefined] }]]));
    expect(out[0]).toMatchObject({ more: 5, loadingMore: true });
  });

  it('"No workspace" and a repository named like it do not collide', () => {
    expect(groupKey(null)).not.toBe(groupKey('No workspace'));
    expect(groupKey(null)).not.toBe(groupKey(''));
  });
});

describe('hit labels', async () => {
  const { hitLabel } = await import('./SearchResults');
  const hit = (o: Partial<Parameters<typeof hitLabel>[0]>) => ({ kind: 'turn' as const, eventId: 1, sessionId: 's', inSubagent: false, eventType: 'user_message', name: null, ts: null, snippet: null, ...o });
  it('say what the event is', () => {
    expect(hitLabel(hit({}))).toBe('user');
    expect(hitLabel(hit({ eventType: 'agent_response', inSubagent: true }))).toBe('response (subagent)');
    expect(hitLabel(hit({ kind: 'tool', eventType: 'tool_call', name: 'read_file' }))).toBe('tool read_file');
    expect(hitLabel(hit({ kind: 'error', eventType: 'llm_request', name: 'chat:gpt-4.1' }))).toBe('error · model call');
    expect(hitLabel(hit({ kind: 'file', eventType: 'tool_call', name: '/w/src/tailFile.ts' }))).toBe('file tailFile.ts');
    expect(hitLabel(hit({ kind: 'file', eventType: 'tool_call', name: 'C:\\w\\retry.ts', inSubagent: true }))).toBe('file retry.ts (subagent)');
    expect(hitLabel(hit({ kind: 'ref', eventType: null, name: 'PR #12' }))).toBe('PR #12');
    expect(hitLabel(hit({ kind: 'meta', eventType: null, eventId: null }))).toBe('title');
    expect(hitLabel(hit({ kind: 'prompt', eventType: 'llm_request', name: 'chat:gpt-4.1' }))).toBe('prompt');
    expect(hitLabel(hit({ kind: 'system_prompt', eventType: null, eventId: null, name: 'system_prompt_1.json' }))).toBe('system_prompt_1.json');
    expect(hitLabel(hit({ kind: 'tools', eventType: null, eventId: null, name: 'tools_0.json', inSubagent: true }))).toBe('tools_0.json (subagent)');
  });
});
