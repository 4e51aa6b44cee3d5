import { describe, expect, it } from 'vitest';
import type { QueryTerm } from './query-parser';
import { makeSnippet, matchRanges } from './snippet';

const t = (text: string, exclude = false): QueryTerm => ({ text, exclude, phrase: false, index: 'trigram' });

describe('snippets', () => {
  it('a short text is whole, with every match of every required term highlighted', () => {
    expect(makeSnippet('Retry the retry loop', [t('retry'), t('loop'), t('the', true)])).toEqual({
      text: 'Retry the retry loop',
      highlights: [
        [0, 5],
        [10, 15],
        [16, 20],
      ],
      cutStart: false,
      cutEnd: false,
    });
  });

  it('a long text is cut around the first match, on spaces, and offsets are relative to the cut', () => {
    const text = `${'lorem ipsum '.repeat(40)}the wsReconnectLoop failed ${'dolor sit '.repeat(40)}`;
    const s = makeSnippet(text, [t('Reconnect')], 120);
    expect(s.cutStart).toBe(true);
    expect(s.cutEnd).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(120);
    expect(s.text.startsWith('ipsum') || s.text.startsWith('lorem')).toBe(true);
    const [a, b] = s.highlights[0];
    expect(s.text.slice(a, b)).toBe('Reconnect');
  });

  it('never cuts a surrogate pair in half', () => {
    const text = `${'😀'.repeat(200)} needle ${'😀'.repeat(200)}`;
    const s = makeSnippet(text, [t('needle')], 101);
    expect(s.text.charCodeAt(0) >= 0xdc00 && s.text.charCodeAt(0) <= 0xdfff).toBe(false);
    const last = s.text.charCodeAt(s.text.length - 1);
    expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
  });

  it('CJK matches are found by offset', () => {
    expect(matchRanges('日志怎么落盘?落盘', [t('落盘')])).toEqual([
      [4, 6],
      [7, 9],
    ]);
  });

  it('no match (text rebuilt differently) still gives the start of the text', () => {
    const s = makeSnippet('x'.repeat(500), [t('absent')], 50);
    expect(s).toEqual({ text: 'x'.repeat(50), highlights: [], cutStart: false, cutEnd: true });
  });
});

describe('snippets of huge lines', () => {
  it('are cut from the raw line around the match, without parsing it', async () => {
    const { fixtureDb, line } = await import('../test-support/fixture-db');
    const { eventIndexedText, MAX_PARSED_LINE } = await import('./snippet');
    const huge = `${'x'.repeat(MAX_PARSED_LINE)} the "needle" is\nhere ${'y'.repeat(5000)}`;
    const fx = await fixtureDb({ 's/main.jsonl': line({ ts: 1, dur: 0, sid: 's', type: 'tool_call', name: 'fetch', spanId: 'a', status: 'ok', attrs: { result: huge } }) });
    try {
      const id = fx.db.prepare('SELECT id FROM events').pluck().get() as number;
      const text = eventIndexedText(fx.db, id, [t('needle')])!;
      expect(text.length).toBeLessThanOrEqual(4000);
      const s = makeSnippet(text, [t('needle')]);
      expect(s.text).toContain('the "needle" is here');
      expect(s.text.slice(s.highlights[0][0], s.highlights[0][1])).toBe('needle');
    } finally {
      fx.cleanup();
    }
  });
});
