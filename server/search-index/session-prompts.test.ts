import { describe, expect, it } from 'vitest';
import { MAX_INDEXED_CHARS, VALUE_SEPARATOR } from '../search/indexed-text';
import { sessionKeyOf, SessionPrompts, type PromptDocs } from './session-prompts';

/** prompt_docs as SQLite keeps it: one row per (session, hash), ids in order; the texts indexed, by row. */
function fakeDocs() {
  const rows = new Map<string, number>();
  const docs: { doc: number; session: number; event: number }[] = [];
  const texts: { doc: number; text: string; cjk: string }[] = [];
  let offered = 0;
  const out: PromptDocs = {
    insertDoc(session, hash, event) {
      offered++;
      const key = `${session}:${hash.toString('hex')}`;
      if (rows.has(key)) return null;
      const doc = rows.size + 1;
      rows.set(key, doc);
      docs.push({ doc, session, event });
      return doc;
    },
    insertText: (doc, text, cjk) => void texts.push({ doc, text, cjk }),
  };
  return { out, docs, texts, offered: () => offered };
}

const messages = (...contents: string[]) => JSON.stringify(contents.map((content) => ({ role: 'user', content })));

describe('which prompt strings of a session get a row (the search thread)', () => {
  it('each distinct string once per session, with the first call that sent it; the repeats of later calls none', () => {
    const f = fakeDocs();
    const p = new SessionPrompts(f.out);
    const s = sessionKeyOf('0f6c8a52-1111-4222-8333-944445555666');
    p.index(s, 10, '', false, [messages('fix the retry loop')]);
    p.index(s, 12, '', false, [messages('fix the retry loop', 'and the kestrel test')]);
    p.index(s, 14, '', false, [messages('fix the retry loop', 'and the kestrel test'), 'and the kestrel test']);
    expect(f.texts.map((t) => t.text)).toEqual(['user', 'fix the retry loop', 'and the kestrel test']);
    expect(f.docs).toEqual([
      { doc: 1, session: s, event: 10 },
      { doc: 2, session: s, event: 10 },
      { doc: 3, session: s, event: 12 },
    ]);
    // the repeats were known without asking for a row
    expect(f.offered()).toBe(3);
  });

  it("not what the session's events said (their text is in event_text), whitespace folded, and two strings of one text once", () => {
    const f = fakeDocs();
    const p = new SessionPrompts(f.out);
    // a user message and a response, as processLine gives their text: strings folded, joined by the separator
    p.index(7, 1, ['Please  look', 'at 日志 落盘'].join(` ${VALUE_SEPARATOR} `).replace(/\s+/g, ' '), true, []);
    p.index(7, 2, '', false, [messages('Please\n\tlook', 'at 日志 落盘', 'new   words'), 'new words']);
    expect(f.texts).toEqual([{ doc: 1, text: 'user', cjk: '' }, { doc: 2, text: 'new words', cjk: '' }]);
    expect(f.docs.map((d) => d.event)).toEqual([2, 2]);
  });

  it('a CJK prompt string gets its CJK tokens; another session gets rows of its own for the same strings', () => {
    const f = fakeDocs();
    const p = new SessionPrompts(f.out);
    p.index(1, 5, '', false, ['请检查 重试预算']);
    p.index(2, 6, '', false, ['请检查 重试预算']);
    expect(f.texts).toEqual([
      { doc: 1, text: '请检查 重试预算', cjk: '请 检 查 0 重 试 预 算' },
      { doc: 2, text: '请检查 重试预算', cjk: '请 检 查 0 重 试 预 算' },
    ]);
    expect(f.docs.map((d) => [d.session, d.event])).toEqual([[1, 5], [2, 6]]);
  });

  it('a text cut at the cap does not hold all it said: none of it is taken as said', () => {
    const f = fakeDocs();
    const p = new SessionPrompts(f.out);
    const cut = 'said before' + VALUE_SEPARATOR + 'x'.repeat(MAX_INDEXED_CHARS);
    p.index(3, 1, cut.slice(0, MAX_INDEXED_CHARS), true, []);
    p.index(3, 2, '', false, ['said before']);
    expect(f.texts.map((t) => t.text)).toEqual(['said before']);
  });

  it('forgets on request (a rolled-back group, a catch-up): the unique row then decides, and nothing is indexed twice', () => {
    const f = fakeDocs();
    const p = new SessionPrompts(f.out);
    p.index(4, 1, '', false, ['only once']);
    p.index(4, 2, '', false, ['only once']);
    expect(f.offered()).toBe(1);
    p.forget();
    p.index(4, 3, '', false, ['only once']);
    expect([f.offered(), f.texts.length]).toEqual([2, 1]);
  });

  it('numbers, booleans and null hold no text; an object part (another writer) gives the strings inside it', async () => {
    const { promptParts } = await import('../search/indexed-text');
    const ev = (attrs: Record<string, unknown>) => ({ type: 'llm_request', attrs }) as unknown as Parameters<typeof promptParts>[0];
    expect(promptParts(ev({ inputMessages: 3, userRequest: null }))).toEqual([]);
    expect(promptParts(ev({ inputMessages: [{ role: 'user', content: 'hi' }], userRequest: true }))).toEqual(['[{"role":"user","content":"hi"}]']);
    expect(promptParts({ ...ev({ userRequest: 'x' }), type: 'tool_call' } as never)).toEqual([]);
    const f = fakeDocs();
    new SessionPrompts(f.out).index(1, 1, '', false, promptParts(ev({ inputMessages: [{ role: 'user', content: 'hi' }] })));
    expect(f.texts.map((t) => t.text)).toEqual(['user', 'hi']);
  });
});
