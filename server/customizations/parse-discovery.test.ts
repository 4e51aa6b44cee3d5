import { describe, expect, it } from 'vitest';
import { parseDiscovery } from './parse-discovery';

// Every `details` shape seen: the troubleshoot skill's examples (seed 004), our corpus generator's, and the
// bare "name (reason)" form the skill's answer quotes ("skipped: testing2 (name-mismatch)").
describe('parseDiscovery', () => {
  it('reads the skill example with folders only', () => {
    expect(parseDiscovery('Load Instructions', 'Resolved 0 instructions in 0.0ms | folders: [/c:/Users/user/.copilot/instructions, /workspace/.github/instructions]', 'ok')).toEqual({
      kind: 'instruction',
      folders: ['/c:/Users/user/.copilot/instructions', '/workspace/.github/instructions'],
      loaded: [],
      skipped: [],
      error: null,
    });
  });

  it('reads bare loaded names, dropping the "..." that stands for more', () => {
    const f = parseDiscovery('Load Skills', 'Resolved 6 skills in 0.0ms | loaded: [agent-customization, troubleshoot, ...]', 'ok');
    expect(f.kind).toBe('skill');
    expect(f.loaded).toEqual(['agent-customization', 'troubleshoot']);
  });

  it('reads loaded, folders and the agents list of the same entry', () => {
    const f = parseDiscovery('Load Agents', 'Resolved 3 agents in 0.0ms | loaded: [Plan, Ask, Explore] | folders: [/workspace/.github/agents]', 'ok');
    expect(f).toMatchObject({ kind: 'agent', loaded: ['Plan', 'Ask', 'Explore'], folders: ['/workspace/.github/agents'], skipped: [] });
  });

  it('reads JSON lists and JSON skip objects', () => {
    const f = parseDiscovery(
      'Load Skills',
      'Discovered 4 skills, loaded 2. loaded: ["troubleshoot", "chronicle"] skipped: [{"path": ".github/skills/release/SKILL.md", "reason": "name-mismatch"}]',
      'ok',
    );
    expect(f.loaded).toEqual(['troubleshoot', 'chronicle']);
    expect(f.skipped).toEqual([{ name: '.github/skills/release/SKILL.md', reason: 'name-mismatch' }]);
  });

  it('prefers a skip object\'s name over its path', () => {
    expect(parseDiscovery('Load Skills', 'skipped: [{"name": "testing2", "path": "/w/.github/skills/testing/SKILL.md", "reason": "name-mismatch"}]', 'ok').skipped).toEqual([
      { name: 'testing2', reason: 'name-mismatch', path: '/w/.github/skills/testing/SKILL.md' },
    ]);
  });

  it('reads the bare "name (reason)" form', () => {
    expect(parseDiscovery('Load Skills', 'Resolved 2 skills | loaded: [troubleshoot] | skipped: testing2 (name-mismatch)', 'ok').skipped).toEqual([
      { name: 'testing2', reason: 'name-mismatch' },
    ]);
    expect(parseDiscovery('Load Skills', 'skipped: [testing2 (name-mismatch), old (missing-description)]', 'ok').skipped).toEqual([
      { name: 'testing2', reason: 'name-mismatch' },
      { name: 'old', reason: 'missing-description' },
    ]);
  });

  it('an empty skip list and a skip count of 0 skip nothing', () => {
    expect(parseDiscovery('Load Prompt Files', 'loaded: [".github/prompts/review.prompt.md"] skipped: []', 'ok')).toMatchObject({
      kind: 'prompt',
      loaded: ['.github/prompts/review.prompt.md'],
      skipped: [],
    });
    expect(parseDiscovery('Load Skills', 'loaded: [a] skipped: 0', 'ok').skipped).toEqual([]);
  });

  it('keeps what a list cut at 5,000 characters still holds', () => {
    const details = `loaded: [${Array.from({ length: 600 }, (_, i) => `"file-${i}.md"`).join(', ')}`.slice(0, 5000) + '[truncated]';
    const f = parseDiscovery('Load Instructions', details, 'ok');
    expect(f.loaded.length).toBeGreaterThan(300);
    expect(f.loaded[0]).toBe('file-0.md');
  });

  it('reports a failed load as an error with its text', () => {
    const f = parseDiscovery('Load Instructions', 'Failed to read .github/instructions/legacy.instructions.md: EACCES: permission denied', 'error');
    expect(f).toEqual({ kind: 'instruction', folders: [], loaded: [], skipped: [], error: 'Failed to read .github/instructions/legacy.instructions.md: EACCES: permission denied' });
  });

  it('hooks and unknown names', () => {
    expect(parseDiscovery('Load Hooks', 'loaded: [".github/hooks/guard.json"] events: ["PreToolUse", "Stop"]', 'ok')).toMatchObject({ kind: 'hook', loaded: ['.github/hooks/guard.json'] });
    expect(parseDiscovery('MCP Servers Started', 'started: ["github"]', 'ok').kind).toBe('other');
    expect(parseDiscovery('Load Skills', undefined, 'ok')).toEqual({ kind: 'skill', folders: [], loaded: [], skipped: [], error: null });
  });
});

describe('fixFor', () => {
  it('names the folder and the name when the skip says both (seed 004: folder testing, name: testing2)', async () => {
    const { fixFor } = await import('./list-customizations');
    expect(fixFor('skill', 'name-mismatch', 'testing2', '.github/skills/testing/SKILL.md')).toBe(
      'its folder is "testing" but its file says name: testing2; they must match: change it to name: testing, or rename the folder to testing2/, then start a new chat',
    );
    expect(fixFor('skill', 'missing-description')).toBe('add a description: line to its front matter');
    expect(fixFor('agent', 'something new')).toBeNull();
  });
});
