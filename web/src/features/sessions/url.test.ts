import { describe, expect, it } from 'vitest';
import { parseSessionsSearch, serializeSessionsSearch } from './url';

const parse = (qs: string) => parseSessionsSearch(new URLSearchParams(qs));
const NEWEST = { sort: 'updated', dir: 'desc', source: undefined } as const;

describe('sessions URL state', () => {
  it('no parameters: every repository, all time', () => {
    expect(parse('')).toEqual({ repo: undefined, window: 'all', ...NEWEST });
    expect(serializeSessionsSearch({ repo: undefined, window: 'all', ...NEWEST }).toString()).toBe('');
  });

  it('an empty repo= means "sessions without a repository" and survives a round trip', () => {
    expect(parse('repo=')).toEqual({ repo: '', window: 'all', ...NEWEST });
    expect(serializeSessionsSearch(parse('repo=')).toString()).toBe('repo=');
  });

  it('round-trips a repository name with a slash and a window', () => {
    const f = { repo: 'microsoft/vscode', window: '7d' as const, ...NEWEST };
    expect(serializeSessionsSearch(f).toString()).toBe('repo=microsoft%2Fvscode&window=7d');
    expect(parse(serializeSessionsSearch(f).toString())).toEqual(f);
  });

  it('the order lives in the URL; an unknown one falls back to newest first', () => {
    const f = { repo: undefined, window: 'all' as const, sort: 'credits' as const, dir: 'asc' as const, source: undefined };
    expect(serializeSessionsSearch(f).toString()).toBe('sort=credits&dir=asc');
    expect(parse('sort=credits&dir=asc')).toEqual(f);
    expect(parse('sort=cost&dir=up')).toEqual({ repo: undefined, window: 'all', ...NEWEST });
  });

  it('an unknown window falls back to all time instead of failing', () => {
    expect(parse('window=1y').window).toBe('all');
  });

  it('the source filter lives in the URL; both sources is the default and an unknown one means both', () => {
    const f = { repo: undefined, window: 'all' as const, sort: 'updated' as const, dir: 'desc' as const, source: 'cli' as const };
    expect(serializeSessionsSearch(f).toString()).toBe('source=cli');
    expect(parse('source=cli')).toEqual(f);
    expect(parse('source=vscode').source).toBe('vscode');
    expect(parse('source=jetbrains').source).toBeUndefined();
  });
});
