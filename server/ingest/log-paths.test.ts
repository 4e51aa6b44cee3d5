import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyLogPath, splitChildName } from './log-paths';

const logs = '/u/Code/User/workspaceStorage/ab/GitHub.copilot-chat/debug-logs';
const at = (...p: string[]) => path.join(logs, ...p);

describe('classifyLogPath', () => {
  it('knows main, child, legacy and companion files (FORMAT §2)', () => {
    expect(classifyLogPath(logs, at('s1', 'main.jsonl'))).toEqual({ kind: 'main', folderSessionId: 's1', sessionId: 's1', label: null });
    expect(classifyLogPath(logs, at('s1', 'runSubagent-Explore-0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.jsonl'))).toEqual({
      kind: 'child',
      folderSessionId: 's1',
      sessionId: '0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
      label: 'runSubagent-Explore',
    });
    expect(classifyLogPath(logs, at('legacy-1.jsonl'))).toEqual({ kind: 'legacy', folderSessionId: 'legacy-1', sessionId: 'legacy-1', label: null });
    expect(classifyLogPath(logs, at('s1', 'tools_2.json'))).toEqual({ kind: 'companion', folderSessionId: 's1', name: 'tools_2.json', companion: 'tools', index: 2 });
    expect(classifyLogPath(logs, at('s1', 'models.json'))).toMatchObject({ kind: 'companion', companion: 'models', index: null });
  });

  it('ignores the size-cap .tmp file, unknown files and anything nested deeper', () => {
    expect(classifyLogPath(logs, at('s1', 'main.jsonl.tmp')).kind).toBe('ignored');
    expect(classifyLogPath(logs, at('s1', 'notes.txt')).kind).toBe('ignored');
    expect(classifyLogPath(logs, at('s1', 'x', 'main.jsonl')).kind).toBe('ignored');
    expect(classifyLogPath(logs, '/elsewhere/main.jsonl').kind).toBe('ignored');
  });
});

describe('splitChildName', () => {
  it('takes a UUID tail whole and otherwise splits at the last dash (non-UUID ids, sanitised labels)', () => {
    expect(splitChildName('title-0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).toEqual({ label: 'title', sessionId: '0b6c9f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' });
    expect(splitChildName('runSubagent-my_agent-cli42')).toEqual({ label: 'runSubagent-my_agent', sessionId: 'cli42' });
    expect(splitChildName('weird')).toEqual({ label: 'weird', sessionId: 'weird' });
  });
});
