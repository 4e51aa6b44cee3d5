import { describe, expect, it } from 'vitest';
import { CLEARED_EVENT_FILTERS, DEFAULT_STATE, errorGroupsQueryOf, eventQueryOf, groupFilter, parseTriageSearch, serializeTriageSearch, triageHref } from './url';

const parse = (qs: string) => parseTriageSearch(new URLSearchParams(qs));

describe('triage URL state', () => {
  it('"clear filters" resets every event-list filter to its default and keeps tab, window and repository', () => {
    expect(CLEARED_EVENT_FILTERS).toEqual({
      type: undefined,
      min: 5000,
      max: undefined,
      status: undefined,
      model: undefined,
      tool: undefined,
      name: undefined,
      q: '',
      from: undefined,
      to: undefined,
      sig: undefined,
    });
    expect(Object.keys(CLEARED_EVENT_FILTERS).sort()).toEqual(['from', 'max', 'min', 'model', 'name', 'q', 'sig', 'status', 'to', 'tool', 'type']);
  });

  it('no parameters: the slowest calls over 5 s, all time', () => {
    expect(parse('')).toEqual(DEFAULT_STATE);
    expect(serializeTriageSearch(DEFAULT_STATE).toString()).toBe('');
    expect(triageHref(DEFAULT_STATE)).toBe('/triage');
  });

  it('round-trips every filter, keeping an empty model (calls without one)', () => {
    const s = { ...DEFAULT_STATE, tab: 'latency' as const, window: '7d' as const, repo: 'a/b', source: 'cli' as const, type: 'llm_request', min: -1, max: 5000, status: 'error' as const, model: '', q: 'retry', sort: 'ttft' as const, from: 1, to: 2, by: 'repository' as const, key: 'read_file', ctype: 'hook' as const };
    expect(parse(serializeTriageSearch(s).toString())).toEqual(s);
  });

  it('keeps the source in the URL as the sessions list does (source=cli|vscode), and scopes every query by it', () => {
    const cli = parse('source=cli');
    expect(cli.source).toBe('cli');
    expect(serializeTriageSearch(cli).toString()).toBe('source=cli');
    expect(parse('source=vscode').source).toBe('vscode');
    expect(parse('source=both').source).toBeUndefined();
    expect(eventQueryOf(cli)).toMatchObject({ source: 'cli' });
    expect(errorGroupsQueryOf(cli)).toMatchObject({ source: 'cli' });
    // "clear filters" keeps it, like the window and the repository
    expect(Object.keys(CLEARED_EVENT_FILTERS)).not.toContain('source');
  });

  it('ignores malformed values instead of failing', () => {
    const s = parse('tab=x&window=1y&min=abc&sort=size&kind=nope&by=zz&max=-5');
    expect(s).toEqual(DEFAULT_STATE);
  });

  it('maps a statistics row to the list filter that selects its calls', () => {
    expect(groupFilter('model', 'gpt-4.1')).toEqual({ type: 'llm_request', model: 'gpt-4.1' });
    expect(groupFilter('hook', 'Stop')).toEqual({ type: 'hook', name: 'Stop' });
    expect(groupFilter('repository', 'o/r', 'tool_call')).toEqual({ type: 'tool_call', repo: 'o/r' });
  });

  it('turns the state into the API query, leaving empty text out', () => {
    expect(eventQueryOf({ ...DEFAULT_STATE, q: '' })).toMatchObject({ min: 5000, sort: 'dur', window: 'all', q: undefined });
  });
});
