import { describe, expect, it } from 'vitest';
import { filesAndRefsOfToolCall, refsInText } from './derive-files-refs';
import { normalizeEntry } from './normalize';

const tool = (name: string, args: unknown, result?: string) =>
  normalizeEntry({ type: 'tool_call', name, attrs: { args: typeof args === 'string' ? args : JSON.stringify(args), ...(result ? { result } : {}) } });

describe('filesAndRefsOfToolCall', () => {
  it('reads the file of file tools (filePath, path, dirPath, multi-replace, apply_patch)', () => {
    expect(filesAndRefsOfToolCall(tool('read_file', { filePath: '/w/a.ts' })).files).toEqual([{ path: '/w/a.ts', tool: 'read_file' }]);
    expect(filesAndRefsOfToolCall(tool('list_dir', { path: '/w/src' })).files).toEqual([{ path: '/w/src', tool: 'list_dir' }]);
    expect(filesAndRefsOfToolCall(tool('multi_replace_string_in_file', { replacements: [{ filePath: '/w/b.ts' }] })).files[0].path).toBe('/w/b.ts');
    expect(filesAndRefsOfToolCall(tool('apply_patch', { input: '*** Begin Patch\n*** Update File: /w/c.ts\n@@' })).files[0].path).toBe('/w/c.ts');
    expect(filesAndRefsOfToolCall(tool('grep_search', { query: 'x', path: '/w' })).files).toEqual([]);
  });

  it('still finds the file when Copilot cut args at 5,000 characters (Chronicle records none, FORMAT §7 case 18)', () => {
    const cut = JSON.stringify({ filePath: '/w/big.ts', content: 'x'.repeat(6000) }).slice(0, 5000) + '[truncated]';
    expect(filesAndRefsOfToolCall(tool('create_file', cut)).files).toEqual([{ path: '/w/big.ts', tool: 'create_file' }]);
  });

  it('reads PR, issue and commit refs from GitHub MCP args and terminal output', () => {
    expect(filesAndRefsOfToolCall(tool('mcp_github_get_pull_request', { owner: 'o', repo: 'r', pullNumber: 12 })).refs).toEqual([{ type: 'pr', value: '12' }]);
    expect(filesAndRefsOfToolCall(tool('mcp_github_get_issue', { issue_number: 7 })).refs).toEqual([{ type: 'issue', value: '7' }]);
    expect(filesAndRefsOfToolCall(tool('run_in_terminal', { command: 'gh pr create --fill' }, 'https://github.com/o/r/pull/123\n')).refs).toEqual([
      { type: 'pr', value: '123' },
    ]);
    expect(filesAndRefsOfToolCall(tool('run_in_terminal', { command: 'git commit -m x' }, '[main 1a2b3c4] fix retry\n 1 file changed')).refs).toEqual([
      { type: 'commit', value: '1a2b3c4' },
    ]);
    expect(filesAndRefsOfToolCall(tool('run_in_terminal', { command: 'ls' }, '[main 1a2b3c4] not a commit')).refs).toEqual([]);
  });
});

describe('refsInText', () => {
  it('finds PR and issue URLs written in messages', () => {
    expect(refsInText('see https://github.com/o/r/pull/5 and https://github.com/o/r/issues/9')).toEqual([
      { type: 'pr', value: '5' },
      { type: 'issue', value: '9' },
    ]);
  });
});
