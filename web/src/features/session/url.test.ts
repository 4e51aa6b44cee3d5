import { describe, expect, it } from 'vitest';
import { PendingUrlState } from '../../app/url-state';
import { EMPTY_VIEW, filterParams, hasFilters, parseSessionSearch, serializeSessionSearch, type SessionViewState } from './url';

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

// The router renders a navigation later (a transition): every change must start from the ones asked for before it,
// whether or not the page has rendered them yet (app/url-state.ts; e2e/timeline.spec.ts presses + + d in one task).
describe('the view changes asked for before the router renders them', () => {
  const params = (qs: string) => new URLSearchParams(qs);
  const pending = (qs: string) => new PendingUrlState<SessionViewState>(params(qs), { parse: parseSessionSearch, serialize: serializeSessionSearch });
  const inBy = (z: readonly [number, number] | null): [number, number] => {
    const [a, b] = z ?? [0, 1];
    return [a + (b - a) / 4, b - (b - a) / 4];
  };

  it('a change is applied to the one before it, not to the URL the page last rendered', () => {
    const v = pending('event=7');
    expect(v.apply((s) => ({ zoom: inBy(s.zoom) })).toString()).toBe('event=7&zoom=0.25-0.75');
    expect(v.apply((s) => ({ zoom: inBy(s.zoom) })).toString()).toBe('event=7&zoom=0.375-0.625');
    expect(v.apply({ event: 9 }).toString()).toBe('event=9&zoom=0.375-0.625');
  });

  it('a render of an earlier change keeps the later ones; a render of the last one is the view again', () => {
    const v = pending('');
    const first = v.apply({ zoom: [0.2, 0.6] });
    v.apply({ event: 5 });
    v.seen(first);
    expect(v.apply({ status: 'error' }).toString()).toBe('event=5&status=error&zoom=0.2-0.6');
    v.seen(params('event=5&status=error&zoom=0.2-0.6'));
    expect(v.apply({ q: 'x' }).toString()).toBe('event=5&status=error&q=x&zoom=0.2-0.6');
  });

  it('a change the router dropped for a later one is not waited for', () => {
    const v = pending('event=1');
    v.apply({ event: 2 });
    v.apply({ event: 1 }); // back where it was: the router may never render event=2
    v.seen(params('event=1'));
    // nothing is pending: a URL from outside now replaces the view (Back, a link)
    v.seen(params('event=3&zoom=0.5-1'));
    expect(v.apply({ status: 'ok' }).toString()).toBe('event=3&status=ok&zoom=0.5-1');
  });

  it('a URL no change asked for (Back, a link) replaces the view, pending changes or not', () => {
    const v = pending('event=1');
    v.apply({ zoom: [0.1, 0.2] });
    v.seen(params('event=8'));
    expect(v.apply({ minDur: 50 }).toString()).toBe('event=8&minDur=50');
  });

  it('the zoom a change starts from is the one the URL gives back (7 decimals)', () => {
    const v = pending('');
    v.apply({ zoom: [1 / 3, 2 / 3] });
    let seen: readonly [number, number] | null = null;
    v.apply((s) => {
      seen = s.zoom;
      return {};
    });
    expect(seen).toEqual([0.3333333, 0.6666667]);
  });

  it('Back to the URL before a change (popstate, before the page renders it) is what the next change starts from', () => {
    const v = pending('event=1&zoom=0.2-0.3');
    v.apply({ zoom: null }); // z: the whole session, pushed; not rendered yet
    // a render of the URL before it says nothing: the change may still be on its way
    v.seen(params('event=1&zoom=0.2-0.3'));
    expect(v.apply({}).toString()).toBe('event=1');
    // Back (or the change landed and then Back): the address is the zoomed one; a wheel turn now
    v.replaceWith(params('event=1&zoom=0.2-0.3'));
    expect(v.apply((s) => ({ zoom: [s.zoom![0], s.zoom![0] + 0.05] })).toString()).toBe('event=1&zoom=0.2-0.25');
  });
});
