import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

// The Markdown export of the bench archive's largest family (254k spans) read and parsed every line of it to write
// 30,000 characters, and "Copy as Markdown" on one span did the same: 5.7 s and 680 MB in the server's main thread.
// It reads the lines of the spans it writes now, a batch at a time, and after a cut only the replies it must count.

const parsed = vi.hoisted(() => ({ lines: 0 }));
vi.mock('../ingest/normalize', async (actual) => {
  const m = await actual<typeof import('../ingest/normalize')>();
  return { ...m, lineAttrs: (raw: Record<string, unknown>) => (parsed.lines++, m.lineAttrs(raw)) };
});
const { exportMarkdown } = await import('./markdown');

const S = 'dddddddd-0000-4000-8000-00000000000d';
const T0 = Date.UTC(2026, 10, 30, 9);
const id = (n: number) => n.toString(16).padStart(16, '0');
const REQUESTS = 12;

/** 12 requests, each: the user's text, a model call whose reply is tool calls only (no item), a tool, a model call with text. */
function files(): Record<string, string> {
  const out = [line({ v: 1, ts: T0, dur: 0, sid: S, type: 'session_start', name: 'session_start', spanId: `session-start-${S}`, status: 'ok', attrs: {} })];
  for (let r = 0; r < REQUESTS; r++) {
    const t = T0 + 1000 + r * 10_000;
    const u = id(1 + r * 4);
    out.push(
      line({ ts: t, dur: 0, sid: S, type: 'user_message', name: 'user_message', spanId: u, status: 'ok', attrs: { content: `request ${r}: why is it slow?` } }),
      line({ ts: t + 10, dur: 900, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(2 + r * 4), parentSpanId: u, status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 1000, outputTokens: 20 } }),
      line({ ts: t + 920, dur: 0, sid: S, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${id(2 + r * 4)}`, parentSpanId: u, status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `c${r}`, name: 'read_file', arguments: '{}' }] }]) } }),
      line({ ts: t + 1000, dur: 30, sid: S, type: 'tool_call', name: 'read_file', spanId: id(3 + r * 4), parentSpanId: u, status: 'ok', attrs: { args: `{"filePath":"/w/src/f${r}.ts"}`, result: 'x'.repeat(300) } }),
      line({ ts: t + 1100, dur: 800, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId: id(4 + r * 4), parentSpanId: u, status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 1200, outputTokens: 40 } }),
      line({ ts: t + 1950, dur: 0, sid: S, type: 'agent_response', name: 'agent_response', spanId: `agent-msg-${id(4 + r * 4)}`, parentSpanId: u, status: 'ok', attrs: { response: JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `answer ${r}` }] }]) } }),
    );
  }
  return { [`${S}/main.jsonl`]: out.join('') };
}

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb(files());
});
afterAll(() => fx.cleanup());

function reads(run: () => string | null): { md: string | null; lines: number } {
  parsed.lines = 0;
  const md = run();
  return { md, lines: parsed.lines };
}

describe('Markdown export: the lines it reads', () => {
  it('read in batches, it writes what one read of everything writes, cut or not', () => {
    for (const maxChars of [1000, 2500, 100_000]) {
      const whole = exportMarkdown(fx.db, S, { maxChars, readBatch: 10_000 });
      for (const readBatch of [1, 3, 7]) expect(exportMarkdown(fx.db, S, { maxChars, readBatch })).toBe(whole);
    }
    // each request makes 5 items: its text, two model calls, a tool, the reply with text (the tool-calls-only reply none)
    expect(exportMarkdown(fx.db, S, { maxChars: 1000, readBatch: 3 })!.trimEnd().split('\n').pop()).toMatch(
      new RegExp(`^\\*Cut at 1,000 characters \\(--max-chars\\): \\d+ of ${REQUESTS * 5} items shown \\(1 of ${REQUESTS} requests\\); long values are cut at 200 characters\\.\\*$`),
    );
  });

  it('cut early: the lines past the cut are not read, but for the replies it counts', () => {
    const all = reads(() => exportMarkdown(fx.db, S, { readBatch: 6 }));
    expect(all.md).not.toContain('Cut at');
    expect(all.lines).toBe(1 + REQUESTS * 6);
    const cut = reads(() => exportMarkdown(fx.db, S, { maxChars: 1000, readBatch: 6 }));
    expect(cut.md).toContain('Cut at');
    // the first batch or two, then the replies of the rest (two a request)
    expect(cut.lines).toBeLessThan(12 + REQUESTS * 2);
  });

  it('one span and what is under it: only its lines', () => {
    const user = fx.db.prepare("SELECT id FROM events WHERE type = 'user_message' ORDER BY id LIMIT 1 OFFSET 5").get() as { id: number };
    const r = reads(() => exportMarkdown(fx.db, S, { eventId: user.id, readBatch: 4 }));
    expect(r.md).toContain('- **User:** request 5: why is it slow?');
    expect(r.md).toContain('answer 5');
    expect(r.md).not.toContain('answer 4');
    expect(r.lines).toBe(6);
  });
});
