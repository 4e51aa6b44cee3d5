import { describe, expect, it } from 'vitest';
import { EMPTY_VIEW, filterParams, hasFilters, parseSessionSearch, serializeSessionSearch } from './url';

const parse = (qs: string) => parseSessionSearch(new URLSearchParams(qs));

describe('session URL state', () => {
  it('a plain session has no parameters', () => {
    expect(parse('')).toEqual(EMPTY_VIEW);
    expect(serializeSessionSearch(EMPTY_VIEW).toString()).toBe('');
  });

  it('round-trips a deep link to an event with filters and a zoom', () => {
    const qs = 'event=4211&type=tool_call%2Cllm_request&status=error&minDur=500&model=gpt-4.1&tool=read_file&q=retry+bug&zoom=0.1-0.25';
    const s = parse(qs);
    expect(s).toEqual({ event: 4211, types: ['tool_call', 'llm_request'], status: 'error', minDur: 500, model: 'gpt-4.1', tool: 'read_file', q: 'retry bug', zoom: [0.1, 0.25], requests: false, from: null });
    expect(serializeSessionSearch(s).toString()).toBe(qs);
  });

  it('keeps the requests-only view and the search that led here', () => {
    const qs = 'event=7&view=requests&from=q%3Dretry%2Bbug%26window%3D7d';
    const s = parse(qs);
    expect([s.requests, s.from]).toEqual([true, 'q=retry+bug&window=7d']);
    expect(serializeSessionSearch(s).toString()).toBe(qs);
    expect(parse('view=tree').requests).toBe(false);
  });

  it('ignores what it cannot use instead of failing', () => {
    expect(parse('event=abc&status=maybe&minDur=-3&zoom=0.5-0.2&type=<script>')).toEqual(EMPTY_VIEW);
    expect(parse('zoom=0-1').zoom).toBeNull();
    expect(parse('zoom=0.2-7').zoom).toEqual([0.2, 1]);
  });

  it('turns the filters into API parameters, blank text left out', () => {
    expect(filterParams({ ...EMPTY_VIEW, q: '  ' })).toEqual({ type: undefined, status: undefined, minDur: undefined, model: undefined, tool: undefined, q: undefined });
    expect(hasFilters({ ...EMPTY_VIEW, event: 3, zoom: [0, 0.5] })).toBe(false);
    expect(hasFilters({ ...EMPTY_VIEW, tool: 'grep_search' })).toBe(true);
  });
});

describe('zoom in the URL', () => {
  it('keeps a narrow zoom exactly enough to reload it (no exponent notation)', () => {
    const s = { ...EMPTY_VIEW, zoom: [0.0000012, 0.0000123] as [number, number] };
    expect(serializeSessionSearch(s).toString()).toBe('zoom=0.0000012-0.0000123');
    expect(parse(serializeSessionSearch(s).toString()).zoom).toEqual([0.0000012, 0.0000123]);
  });
});
