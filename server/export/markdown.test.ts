import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDb, type FixtureDb } from '../test-support/fixture-db';
import { exportFixtureFiles, PARENT } from './export-fixture';
import { exportMarkdown } from './markdown';

// The Markdown export, read by eye once (printed below when it changes) and asserted on its key lines.

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb(exportFixtureFiles());
});
afterAll(() => fx.cleanup());

describe('Markdown export', () => {
  it('the session: facts, each request with the user text, its calls in order, the subagent nested', () => {
    const md = exportMarkdown(fx.db, PARENT)!;
    const lines = md.split('\n');
    expect(lines[0]).toBe('# Why does the retry loop spin?');
    expect(lines[2]).toBe(`Session \`${PARENT}\` · ws1 · started 2026-11-30 09:00:00Z · lasted 14.7 s · 1 request · models gpt-4.1 · 37,000 tokens in, 320 out · 1.50 AI credits · 1 error`);
    expect(lines).toContain('## Request 1 · 2026-11-30 09:00:00Z');
    expect(lines).toContain('> Why does the retry loop spin?');
    expect(lines).toContain('- **Model call** `gpt-4.1` · 4.2 s · TTFT 900 ms · 18,000 → 240 tokens (12,000 cached)');
    expect(md).toContain('- **Assistant:**\n  Let me look at the loop.');
    expect(md).toContain('- **Tool** `read_file` · 35 ms\n  arguments:\n  ```json\n  {"filePath":"/w/src/retry.ts"}\n  ```\n  result:\n  ```\n  export function retry() { while (true) {} }\n  ```');
    expect(md).toContain('- **Tool** `run_in_terminal` · 20 ms · **error**');
    expect(md).toContain('error: ```\nA native exception occurred during launch\n```');
    expect(md).toContain('- **Tool** `runSubagent` · 9.0 s');
    expect(lines).toContain('  - **Subagent** Explore · 8.9 s: find the loop');
    expect(lines).toContain('    - **Model call** `gpt-4.1` · 2.0 s · TTFT 400 ms · 5,000 → 60 tokens');
    expect(md).toContain('- **Assistant:**\n  The loop never exits: add a bound.');
    // the order of the tree: the first model call before the tools, the subagent before the second model call
    expect(md.indexOf('Let me look')).toBeLessThan(md.indexOf('read_file'));
    expect(md.indexOf('Subagent')).toBeLessThan(md.indexOf('The loop never exits'));
    expect(md).not.toContain('Cut at');
  });

  it('cut at --max-chars with a note saying what was left out', () => {
    const md = exportMarkdown(fx.db, PARENT, { maxChars: 1000 })!;
    expect(md.length).toBeLessThanOrEqual(1000);
    expect(md.trimEnd().split('\n').pop()).toMatch(/^\*Cut at 1,000 characters \(--max-chars\): \d+ of 12 items shown \(1 of 1 request\); long values are cut at 200 characters\.\*$/);
  });

  it('one span and what is under it ("Copy as Markdown")', () => {
    const sub = fx.db.prepare("SELECT id FROM events WHERE type = 'subagent'").get() as { id: number };
    const md = exportMarkdown(fx.db, PARENT, { eventId: sub.id })!;
    expect(md.split('\n').slice(0, 3)).toEqual(['# Explore in Why does the retry loop spin?', '', `Session \`${PARENT}\` · event ${sub.id} · 2026-11-30 09:00:04Z`]);
    expect(md).toContain('- **Subagent** Explore · 8.9 s: find the loop');
    expect(md).toContain('  - **Tool** `grep_search` · 15 ms');
    expect(md).not.toContain('read_file');
    expect(exportMarkdown(fx.db, PARENT, { eventId: 999_999 })).toBeNull();
  });
});
