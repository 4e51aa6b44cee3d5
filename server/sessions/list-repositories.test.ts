import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { listRepositories } from './list-repositories';

const DAY = 24 * 3600_000;
const NOW = 1_775_000_000_000;

function session(sid: string, ts: number): string {
  return (
    line({ v: 1, ts, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: {} }) +
    line({ ts: ts + 10, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `a-${sid}`, status: 'ok', attrs: { content: 'hi' } })
  );
}

let fx: FixtureDb | undefined;
afterEach(() => fx?.cleanup());

describe('listRepositories', () => {
  it('counts top-level sessions per repository, newest activity first, and narrows by window', async () => {
    // alpha: two sessions (one old), beta: one recent session
    fx = await fixtureDb({
      'alpha:s1/main.jsonl': session('s1', NOW - 40 * DAY),
      'alpha:s2/main.jsonl': session('s2', NOW - 2 * DAY),
      'beta:s3/main.jsonl': session('s3', NOW - 3600_000),
    });
    const all = listRepositories(fx.db, { window: 'all' }, NOW).repositories;
    expect(all.map((r) => [r.name, r.sessions])).toEqual([
      ['beta', 1],
      ['alpha', 2],
    ]);
    expect(all[1].lastActivity).toBe(NOW - 2 * DAY + 10);
    const week = listRepositories(fx.db, { window: '7d' }, NOW).repositories;
    expect(week.map((r) => [r.name, r.sessions])).toEqual([
      ['beta', 1],
      ['alpha', 1],
    ]);
    expect(listRepositories(fx.db, { window: '24h' }, NOW).repositories.map((r) => r.name)).toEqual(['beta']);
  });

  it('counts only the sessions of a source when asked, as the list filtered by that source shows them', async () => {
    fx = await fixtureDb({
      'alpha:s1/main.jsonl': session('s1', NOW - 2 * DAY),
      'alpha:s2/main.jsonl': session('s2', NOW - DAY),
      'beta:s3/main.jsonl': session('s3', NOW - 3600_000),
    });
    // s2 stands in for a CLI session until the CLI ingest writes them: the filter reads only the column
    fx.db.prepare(`UPDATE sessions SET source = 'cli' WHERE id = 's2'`).run();
    const counts = (source?: 'cli' | 'vscode') => listRepositories(fx!.db, { window: 'all', source }, NOW).repositories.map((r) => [r.name, r.sessions]);
    expect(counts('cli')).toEqual([['alpha', 1]]);
    expect(counts('vscode')).toEqual([
      ['beta', 1],
      ['alpha', 1],
    ]);
    expect(counts()).toEqual([
      ['beta', 1],
      ['alpha', 2],
    ]);
  });
});
