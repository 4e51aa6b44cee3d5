import { describe, expect, it } from 'vitest';
import { addFilter, filterValues, longestWord, quoteValue, removeFilter, sourceChoice, toggleFilter, withSourceChoice } from './query-text';

describe('editing filters in the query text', () => {
  it('reads values, quoted values and comma lists', () => {
    expect(filterValues('retry type:tool,user repo:"my project" Type:hook', 'type')).toEqual(['tool', 'user', 'hook']);
    expect(filterValues('retry repo:"my ""big"" project"', 'repo')).toEqual(['my "big" project']);
    expect(filterValues('file:src/a,b.ts', 'file')).toEqual(['src/a,b.ts']);
  });

  it('adds once, at the end, quoting when needed', () => {
    expect(addFilter('retry', 'type', 'tool')).toBe('retry type:tool');
    expect(addFilter('retry type:tool', 'type', 'TOOL')).toBe('retry type:tool');
    expect(addFilter('retry', 'repo', 'my project')).toBe('retry repo:"my project"');
    expect(addFilter('', 'status', 'error')).toBe('status:error');
  });

  it('removes one value or the whole filter, leaving the words alone', () => {
    expect(removeFilter('retry type:tool,user backoff', 'type', 'tool')).toBe('retry backoff type:user');
    expect(removeFilter('retry type:tool backoff type:user', 'type')).toBe('retry backoff');
    expect(removeFilter('retry repo:"my project"', 'repo', 'my project')).toBe('retry');
    expect(removeFilter('stype:x retry', 'type')).toBe('stype:x retry');
  });

  it('toggles', () => {
    expect(toggleFilter('retry', 'type', 'error')).toBe('retry type:error');
    expect(toggleFilter('retry type:error', 'type', 'error')).toBe('retry');
  });

  it('quotes values with spaces or quotes', () => {
    expect(quoteValue('a b')).toBe('"a b"');
    expect(quoteValue('say "hi"')).toBe('"say ""hi"""');
    expect(quoteValue('plain')).toBe('plain');
  });

  it('finds the longest word that is not a filter or an exclusion', () => {
    expect(longestWord('wsReconnectLoop repo:acme/chronoscope -test "retry loop"')).toBe('wsReconnectLoop');
    expect(longestWord('type:tool')).toBeNull();
  });
});

describe('the source control edits source: in the query text', () => {
  it('reads one source, and "all" for none, both or an unknown one', () => {
    expect(['retry', 'retry source:cli', 'source:VSCODE retry', 'source:cli,vscode', 'source:jetbrains'].map(sourceChoice)).toEqual(['all', 'cli', 'vscode', 'all', 'all']);
  });

  it('replaces whatever source filter the text has, keeps the rest, and "all" removes it', () => {
    expect(withSourceChoice('retry type:tool', 'cli')).toBe('retry type:tool source:cli');
    expect(withSourceChoice('retry source:vscode type:tool', 'cli')).toBe('retry type:tool source:cli');
    expect(withSourceChoice('source:cli,vscode retry', 'vscode')).toBe('retry source:vscode');
    expect(withSourceChoice('retry source:cli', 'all')).toBe('retry');
    expect(withSourceChoice('', 'cli')).toBe('source:cli');
  });
});
