import { describe, expect, it } from 'vitest';
import { queryTerms, segmentByRanges, termRanges } from './highlight';

describe('segmentByRanges', () => {
  it('cuts around each range and joins back to the same text', () => {
    const segs = segmentByRanges('fix the retry bug', [[8, 13]]);
    expect(segs).toEqual([
      { text: 'fix the ', highlighted: false },
      { text: 'retry', highlighted: true },
      { text: ' bug', highlighted: false },
    ]);
    expect(segs.map((s) => s.text).join('')).toBe('fix the retry bug');
  });

  it('merges overlapping and unsorted ranges, clamps out-of-bounds ones, drops empty ones', () => {
    expect(segmentByRanges('abcdef', [[4, 99], [1, 3], [2, 4], [5, 5], [-3, 0]])).toEqual([
      { text: 'a', highlighted: false },
      { text: 'bcdef', highlighted: true },
    ]);
  });

  it('keeps markup-looking log text as plain text', () => {
    expect(segmentByRanges('<img onerror=x>', [[1, 4]]).map((s) => s.text)).toEqual(['<', 'img', ' onerror=x>']);
    expect(segmentByRanges('', [])).toEqual([{ text: '', highlighted: false }]);
  });
});

describe('search terms in other text', () => {
  it('takes the words and phrases of a query, not its filters or exclusions', () => {
    expect(queryTerms('retry "with  backoff" -flaky repo:acme/api tool:"run in terminal" 落盘')).toEqual(['retry', 'with backoff', '落盘']);
    // every filter key the server knows, source: included (the page had its own list, without it)
    expect(queryTerms('source:cli Source:vscode branch:main ref:"PR 382" file:a.ts wsReconnect')).toEqual(['wsReconnect']);
    expect(queryTerms('"say ""hi"""  --force http://x')).toEqual(['say "hi"', '--force', 'http://x']);
    expect(queryTerms('   ')).toEqual([]);
  });

  it('finds them case-insensitively, a phrase across line breaks', () => {
    const text = 'Retry with\nbackoff; RETRY later';
    expect(termRanges(text, ['retry', 'with backoff'])).toEqual([
      [0, 5],
      [6, 18],
      [20, 25],
    ]);
    expect(termRanges('a.b(c)', ['.b('])).toEqual([[1, 4]]);
    expect(termRanges('anything', [])).toEqual([]);
  });
});
