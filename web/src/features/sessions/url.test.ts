import { describe, expect, it } from 'vitest';
import { parseSessionsSearch, serializeSessionsSearch } from './url';

const parse = (qs: string) => parseSessionsSearch(new URLSearchParams(qs));

describe('sessions URL state', () => {
  it('no parameters: every repository, all time', () => {
    expect(parse('')).toEqual({ repo: undefined, window: 'all' });
    expect(serializeSessionsSearch({ repo: undefined, window: 'all' }).toString()).toBe('');
  });

  it('an empty repo= means "sessions without a repository" and survives a round trip', () => {
    expect(parse('repo=')).toEqual({ repo: '', window: 'all' });
    expect(serializeSessionsSearch(parse('repo=')).toString()).toBe('repo=');
  });

  it('round-trips a repository name with a slash and a window', () => {
    const f = { repo: 'microsoft/vscode', window: '7d' as const };
    expect(serializeSessionsSearch(f).toString()).toBe('repo=microsoft%2Fvscode&window=7d');
    expect(parse(serializeSessionsSearch(f).toString())).toEqual(f);
  });

  it('an unknown window falls back to all time instead of failing', () => {
    expect(parse('window=1y').window).toBe('all');
  });
});
