import { describe, expect, it } from 'vitest';
import { planBackfill, RECENT_WINDOW_MS, sessionKeyOf } from './backfill-order';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28, 12);
const ws = '/u/Code/User/workspaceStorage/ws1/GitHub.copilot-chat/debug-logs';
const global = '/u/Code/User/globalStorage/github.copilot-chat/debug-logs';
const f = (p: string, daysAgo: number, size = 100) => ({ path: p, size, mtimeMs: NOW - daysAgo * DAY });

describe('backfill order', () => {
  it('goes whole sessions newest first by their newest log, not files newest first', () => {
    // Session a: main written 1 day ago, a child log 30 days ago. Session b: main 2 days ago.
    // Files newest first would read a/main, b/main, then a's child: a would finish after b.
    const plan = planBackfill([f(`${ws}/b/main.jsonl`, 2), f(`${ws}/a/runSubagent-x-c1.jsonl`, 30), f(`${ws}/a/main.jsonl`, 1)]);
    expect(plan.files.map((x) => x.path)).toEqual([`${ws}/a/main.jsonl`, `${ws}/a/runSubagent-x-c1.jsonl`, `${ws}/b/main.jsonl`]);
  });

  it('a child log written after main.jsonl makes the session that recent', () => {
    const plan = planBackfill([f(`${ws}/a/main.jsonl`, 20), f(`${ws}/a/runSubagent-x-c1.jsonl`, 1), f(`${ws}/b/main.jsonl`, 2)]);
    expect(plan.files.map((x) => x.path)).toEqual([`${ws}/a/runSubagent-x-c1.jsonl`, `${ws}/a/main.jsonl`, `${ws}/b/main.jsonl`]);
  });

  it('companions ride with their session and do not date it', () => {
    const plan = planBackfill([f(`${ws}/a/main.jsonl`, 10), f(`${ws}/a/models.json`, 0), f(`${ws}/b/main.jsonl`, 5)]);
    expect(plan.files.map((x) => x.path)).toEqual([`${ws}/b/main.jsonl`, `${ws}/a/models.json`, `${ws}/a/main.jsonl`]);
  });

  it('splits files and bytes into the newest 7 days (relative to the newest write) and older', () => {
    const plan = planBackfill([
      f(`${ws}/new/main.jsonl`, 100, 1000), // the newest write is 100 days ago: "this week" is relative to it
      f(`${ws}/new/runSubagent-x-c1.jsonl`, 103, 200), // older than a week itself, but its session is recent
      f(`${global}/edge/main.jsonl`, 107, 30), // exactly 7 days before the newest write: recent
      f(`${ws}/old/main.jsonl`, 107.5, 4000),
      f(`${ws}/legacy.jsonl`, 150, 5),
    ]);
    expect(plan.recentSince).toBe(NOW - 100 * DAY - RECENT_WINDOW_MS);
    expect(plan.files.map((x) => [x.path.split('/').slice(-2).join('/'), x.recent])).toEqual([
      ['new/main.jsonl', true],
      ['new/runSubagent-x-c1.jsonl', true],
      ['edge/main.jsonl', true],
      ['old/main.jsonl', false],
      ['debug-logs/legacy.jsonl', false],
    ]);
    expect(plan.recent).toEqual({ filesDone: 0, filesTotal: 3, bytesDone: 0, bytesTotal: 1230 });
    expect(plan.older).toEqual({ filesDone: 0, filesTotal: 2, bytesDone: 0, bytesTotal: 4005 });
  });

  it('"this week" is reckoned from the newest log: a folder with only companions, written later, does not move it', () => {
    const plan = planBackfill([f(`${ws}/models-only/models.json`, 0), f(`${ws}/a/main.jsonl`, 10), f(`${ws}/b/main.jsonl`, 16)]);
    expect(plan.recentSince).toBe(NOW - 10 * DAY - RECENT_WINDOW_MS);
    expect(plan.files.map((x) => [x.path.split('/').slice(-2).join('/'), x.recent])).toEqual([
      ['models-only/models.json', true],
      ['a/main.jsonl', true],
      ['b/main.jsonl', true],
    ]);
  });

  it('one session id in two roots is one session (FORMAT §10.1)', () => {
    expect(sessionKeyOf(`${ws}/abc/main.jsonl`)).toBe('abc');
    expect(sessionKeyOf(`${global}/abc/runSubagent-x-c1.jsonl`)).toBe('abc');
    expect(sessionKeyOf(`${ws}/abc.jsonl`)).toBe('abc');
    const plan = planBackfill([f(`${ws}/abc/main.jsonl`, 20), f(`${ws}/b/main.jsonl`, 5), f(`${global}/abc/runSubagent-x-c1.jsonl`, 1)]);
    expect(plan.files.map((x) => x.path)).toEqual([`${global}/abc/runSubagent-x-c1.jsonl`, `${ws}/abc/main.jsonl`, `${ws}/b/main.jsonl`]);
  });

  it("a Copilot CLI session's agentHostUsage file rides with its session-state folder, without dating it", () => {
    // The usage files of every CLI session sit side by side in one folder (INTEROP §3): keyed by their folder,
    // they were one "session" as new as the newest of them, read first and counted in this week whole.
    const cli = '/home/dev/.copilot/session-state';
    const usage = '/u/Code/User/agentHostUsage';
    expect(sessionKeyOf(`${usage}/abc.jsonl`)).toBe('abc');
    expect(sessionKeyOf(`${cli}/abc/events.jsonl`)).toBe('abc');
    const plan = planBackfill([
      f(`${usage}/old.jsonl`, 0),
      f(`${cli}/old/events.jsonl`, 30),
      f(`${cli}/new/events.jsonl`, 2),
      f(`${usage}/new.jsonl`, 1),
      f(`${ws}/mid/main.jsonl`, 10),
    ]);
    expect(plan.files.map((x) => [x.path.slice(x.path.lastIndexOf('/', x.path.lastIndexOf('/') - 1) + 1), x.recent])).toEqual([
      ['agentHostUsage/new.jsonl', true],
      ['new/events.jsonl', true],
      ['mid/main.jsonl', false],
      ['agentHostUsage/old.jsonl', false],
      ['old/events.jsonl', false],
    ]);
  });

  it('nothing to index: no window, empty shares', () => {
    expect(planBackfill([])).toEqual({ files: [], recentSince: null, recent: { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }, older: { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 } });
  });
});
