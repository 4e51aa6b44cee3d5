import { describe, expect, it } from 'vitest';
import { TIME_WINDOWS, WINDOW_WORDS } from '../../../shared/time-window';
import { inWindow, WINDOW_TEXT } from './window-text';

// One wording of a window: the pages' sentences and the command line's headings ("Usage, last 7 days, by model",
// usage/format-cli.test.ts), both from WINDOW_WORDS.
describe('window words', () => {
  it('the pages say what the command line says, in a sentence', () => {
    expect(TIME_WINDOWS.map((w) => [WINDOW_TEXT[w], WINDOW_WORDS[w]])).toEqual([
      ['the last 24 hours', 'last 24 hours'],
      ['the last 7 days', 'last 7 days'],
      ['the last 30 days', 'last 30 days'],
      ['the last 90 days', 'last 90 days'],
      ['all time', 'all time'],
    ]);
    expect([inWindow('7d'), inWindow('all')]).toEqual([' in the last 7 days', '']);
  });
});
