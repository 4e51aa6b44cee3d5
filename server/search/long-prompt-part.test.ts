import { describe, expect, it } from 'vitest';
import type { NormalizedEvent } from '../../shared/log-entry';
import { processLine } from '../ingest/process-line';
import { LONG_PROMPT_PART_CHARS, MAX_INDEXED_CHARS, indexedPromptPart, promptStringsOf, promptText } from './indexed-text';

// A prompt part the search thread gets is cut when it is long: only its first MAX_INDEXED_CHARS folded characters
// are indexed, and a pasted file of megabytes in `userRequest` (never truncated, FORMAT.md) was cloned to the search
// thread whole by every model call of its turn.
const repeat = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);

describe('indexedPromptPart', () => {
  it('leaves a part up to LONG_PROMPT_PART_CHARS, and a JSON part of any length, as written', () => {
    const short = repeat('word ', LONG_PROMPT_PART_CHARS);
    expect(indexedPromptPart(short)).toBe(short);
    const json = JSON.stringify([{ role: 'user', content: repeat('word ', LONG_PROMPT_PART_CHARS) }]);
    expect(indexedPromptPart(json)).toBe(json);
    // JSON after leading whitespace is JSON too (valueStrings parses it)
    const spaced = '\n  ' + json;
    expect(indexedPromptPart(spaced)).toBe(spaced);
  });

  it('cuts prose to the first prefix that folds past the cap: the same indexed text', () => {
    const prose = repeat('retry with backoff ', 3 * LONG_PROMPT_PART_CHARS);
    const cut = indexedPromptPart(prose);
    // nothing folds in single-spaced prose: the first try, MAX_INDEXED_CHARS + 2 characters, is enough
    expect(cut.length).toBe(MAX_INDEXED_CHARS + 2);
    expect(prose.startsWith(cut)).toBe(true);
    expect(promptText(cut)).toBe(promptText(prose));
  });

  it('takes a longer prefix where whitespace runs fold, and cuts a run or a surrogate pair in two harmlessly', () => {
    // 8 characters fold to 2 ("a" and one space): 4 × (MAX_INDEXED_CHARS + 2) raw characters fold to one character
    // too few once the run they end in is trimmed, so the prefix twice as long is taken
    const indented = repeat('a \n\t    ', 3 * LONG_PROMPT_PART_CHARS);
    const cut = indexedPromptPart(indented);
    expect(cut.length).toBe(8 * (MAX_INDEXED_CHARS + 2));
    expect(promptText(cut)).toBe(promptText(indented));
    // CJK and an emoji (a surrogate pair) that the cut may split
    const mixed = repeat('落盘 😀 x\n\n', 2 * LONG_PROMPT_PART_CHARS);
    expect(promptText(indexedPromptPart(mixed))).toBe(promptText(mixed));
    expect(indexedPromptPart(mixed).length).toBeLessThan(mixed.length);
  });

  it('leaves a part that never folds past the cap (whitespace only) as written', () => {
    const blank = ' \n'.repeat(LONG_PROMPT_PART_CHARS);
    expect(indexedPromptPart(blank)).toBe(blank);
  });
});

describe('processLine hands the search thread a long userRequest cut', () => {
  it('with the prompt strings the search thread indexes unchanged', () => {
    const userRequest = repeat('please read this log line and explain it\n', 2_600_100);
    const entry = { ts: 1775000000000, dur: 900, sid: 's', type: 'llm_request', name: 'chat:gpt-5-mini', spanId: '0000000000000001', status: 'ok', attrs: { model: 'gpt-5-mini', userRequest, inputMessages: JSON.stringify([{ role: 'user', content: 'hi' }]) } };
    const p = processLine({ bytes: Buffer.from(JSON.stringify(entry)), byteOffset: 0, tooLong: false } as never);
    expect(p.promptParts.map((x) => x.length)).toEqual([entry.attrs.inputMessages.length, MAX_INDEXED_CHARS + 2]);
    expect(promptStringsOf(p.promptParts).map(promptText)).toEqual(['user', 'hi', promptText(userRequest)]);
    // the event itself keeps the whole request (the archive has the line; the detail pane and exports read it)
    expect(((p.event as NormalizedEvent).attrs.userRequest as string).length).toBe(2_600_100);
  });
});
