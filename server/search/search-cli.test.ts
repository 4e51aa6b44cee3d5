import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../test-support/run-cli-captured';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { relativeTime, snippetLine } from './format-cli';

// `chronoscope search`: grouped text for people, JSON for scripts, exit codes like grep (0 found, 1 none, 2 bad).

const S1 = 'eeeeeeee-0000-4000-8000-000000000001';
const S2 = 'eeeeeeee-0000-4000-8000-000000000002';
const T = Date.now() - 2 * 3_600_000;
let fx: FixtureDb;
const msg = (sid: string, content: string, ts = T) => line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `R-${sid}`, status: 'ok', attrs: { content } });

beforeAll(async () => {
  fx = await fixtureDb({
    [`${S1}/main.jsonl`]: msg(S1, 'why does wsReconnectLoop spin?'),
    [`ws2:${S2}/main.jsonl`]: msg(S2, 'wsReconnectLoop needs a backoff', T - 20 * 86_400_000),
  });
});
afterAll(() => fx.cleanup());

const run = (...args: string[]) => runCliCaptured(['search', ...args, '--db', fx.dbPath, '--logs', path.join(fx.root, 'Code')]);

describe('chronoscope search', () => {
  it('prints sessions grouped by repository, with where they matched and a snippet', async () => {
    const { code, out } = await run('Reconnect');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('Search results for "Reconnect" (2 sessions, 2 events, all time)');
    expect(lines).toContain('ws1');
    expect(lines).toContain('ws2');
    expect(out).toContain(`  ${S1}  why does wsReconnectLoop spin?`);
    expect(out).toMatch(/updated 2h ago · matched in meta 1, turn 1/);
  });

  it('--window and --repo narrow; --json prints the API response', async () => {
    const { out } = await run('Reconnect', '--window', '7d', '--json');
    const r = JSON.parse(out) as { groups: { sessions: { id: string }[] }[]; query: { window: string } };
    expect(r.query.window).toBe('7d');
    expect(r.groups.flatMap((g) => g.sessions.map((s) => s.id))).toEqual([S1]);
    const byRepo = JSON.parse((await run('Reconnect', '--repo', 'ws2', '--json')).out) as typeof r;
    expect(byRepo.groups.flatMap((g) => g.sessions.map((s) => s.id))).toEqual([S2]);
  });

  it('no match exits 1 with suggestions; a bad query or flag exits 2 saying what to fix', async () => {
    const none = await run('nothing-like-this', '--window', '24h');
    expect(none.code).toBe(1);
    expect(none.out).toMatch(/No sessions found\. Try a shorter or different word/);
    expect(none.out).toMatch(/a wider window \(--window all\)/);
    const short = await run('io');
    expect([short.code, short.err]).toEqual([2, expect.stringMatching(/^chronoscope search: "io" is too short/)]);
    const window = await run('retry', '--window', '1y');
    expect([window.code, window.err]).toEqual([2, expect.stringMatching(/^chronoscope search: --window: /)]);
  });

  it('formats snippets and times for a terminal', () => {
    expect(snippetLine({ text: 'the retry loop', highlights: [[4, 9]], cutStart: true, cutEnd: false }, (t) => `[${t}]`)).toBe('…the [retry] loop');
    const now = Date.UTC(2026, 0, 10);
    expect(relativeTime(now - 30_000, now)).toBe('just now');
    expect(relativeTime(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3h ago');
    expect(relativeTime(now - 3 * 86_400_000, now)).toBe('3d ago');
    expect(relativeTime(null, now)).toBe('no activity');
  });
});
