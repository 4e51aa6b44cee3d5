import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { scanEventHits } from './event-hits';
import { parseSearch, searchSessions } from './search-sessions';
import { intersect, joinNearest, MAX_SCOPE_PIECES, sessionScope } from './session-scope';

// A first page reads a word's newest matches within a budget (FIRST_PAGE_LIMITS); a repo:, branch: or source:
// filter was applied to the sessions those matches were in. A repository whose sessions were older than the word's
// newest matches elsewhere showed "No session among the first 6,000 matches" on the page, "at least 0 sessions" on
// the command line and to agents, while depth=all found them. The filter now narrows what the scan reads.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const NEWEST = 'aaaaaaaa-0000-4000-8000-0000000000a1'; // ws1, an hour ago: many matches
const MIDDLE = 'cccccccc-0000-4000-8000-0000000000c3'; // ws3, a day ago: many matches
const OLDEST = 'bbbbbbbb-0000-4000-8000-0000000000b2'; // ws2, two days ago: two matches, and one in its subagent
const SUBAGENT = 'dddddddd-0000-4000-8000-0000000000d4';

/** Span ids as the writer gives them: a counter that starts again at 0000000000000001 in every session (FORMAT §10). */
const spans = new Map<string, number>();
const span = (sid: string) => {
  const n = (spans.get(sid) ?? 0) + 1;
  spans.set(sid, n);
  return n.toString(16).padStart(16, '0');
};
const reads = (sid: string, at: number, count: number, word = 'zorbling') =>
  Array.from({ length: count }, (_, i) =>
    line({ ts: at + i, dur: 5, sid, type: 'tool_call', name: 'grep_search', spanId: span(sid), status: 'ok', attrs: { args: '{"query":"TODO"}', result: `${word} step ${i}` } }),
  ).join('');

const BUDGET = { maxHits: 6, maxScanned: 8, maxMs: Infinity, chunk: 4 };
let fx: FixtureDb;

const oldestFiles = { main: `ws2:${OLDEST}/main.jsonl`, sub: `ws2:${OLDEST}/runSubagent-explore-${SUBAGENT}.jsonl` };
beforeAll(async () => {
  fx = await fixtureDb(
    {
      [`${NEWEST}/main.jsonl`]: reads(NEWEST, NOW - HOUR, 20),
      [`ws3:${MIDDLE}/main.jsonl`]: reads(MIDDLE, NOW - DAY, 20),
      [oldestFiles.main]:
        reads(OLDEST, NOW - 2 * DAY, 2) +
        line({ ts: NOW - 2 * DAY + 10, dur: 50, sid: OLDEST, type: 'child_session_ref', name: 'runSubagent', spanId: span(OLDEST), status: 'ok', attrs: { childSessionId: SUBAGENT, label: 'explore' } }),
      // the subagent also read a file and opened a PR: paths and refs of the family, for file: and ref:
      [oldestFiles.sub]:
        reads(SUBAGENT, NOW - 2 * DAY + 20, 1) +
        line({ ts: NOW - 2 * DAY + 30, dur: 5, sid: SUBAGENT, type: 'tool_call', name: 'read_file', spanId: span(SUBAGENT), status: 'ok', attrs: { args: '{"filePath":"lib/gizmo.ts"}', result: 'export {}' } }) +
        line({ ts: NOW - 2 * DAY + 40, dur: 5, sid: SUBAGENT, type: 'tool_call', name: 'mcp_github_get_pull_request', spanId: span(SUBAGENT), status: 'ok', attrs: { args: '{"pullNumber":4242}', result: 'ok' } }),
    },
    // last written as dated: the backfill gives the newest session the lowest ids
    { mtimes: { [`${NEWEST}/main.jsonl`]: NOW - HOUR, [`ws3:${MIDDLE}/main.jsonl`]: NOW - DAY, [oldestFiles.main]: NOW - 2 * DAY, [oldestFiles.sub]: NOW - 2 * DAY } },
  );
}, 60_000);
afterAll(() => fx?.cleanup());

const page = (q: string, extra: Record<string, unknown> = {}): SearchResponse => searchSessions(fx.db, SearchQuery.parse({ q, window: 'all', ...extra }), NOW, BUDGET);
const all = (q: string): SearchResponse => page(q, { depth: 'all' });
const ids = (r: SearchResponse) => r.groups.flatMap((g) => g.sessions.map((s) => s.id));
/** matching events per session shown, and how many of them are its subagents' */
const hits = (r: SearchResponse) => r.groups.flatMap((g) => g.sessions.map((s) => [r.totals.events, s.subagentHits]));

describe('a session-level filter narrows what the first page reads', () => {
  it('finds the matches of an older repository the newest matches elsewhere hid, with exact totals', () => {
    // without the filter the budget is spent on ws1 (and ws3): ws2's session is not among the first matches
    expect(ids(page('zorbling'))).toEqual([NEWEST]);
    const r = page('zorbling repo:ws2');
    expect(ids(r)).toEqual([OLDEST]);
    expect(r.totals).toMatchObject({ sessions: 1, exact: true });
    // its two matches and its subagent's one: the subagent's own row is rolled up to its top-level session
    expect(hits(r)).toEqual([[3, 1]]);
    expect(r.groups.map((g) => g.repository)).toEqual(['ws2']);
  });

  it('counts what depth=all counts (one number everywhere)', () => {
    for (const q of ['zorbling repo:ws2', 'zorbling source:vscode repo:WS2', '"zorbling step 1" repo:ws2', 'zorbling repo:ws2 source:cli']) {
      const first = page(q);
      const whole = all(q);
      expect(first.totals.exact).toBe(true);
      expect({ q, ids: ids(first), hits: hits(first), sessions: first.totals.sessions }).toEqual({ q, ids: ids(whole), hits: hits(whole), sessions: whole.totals.sessions });
    }
  });

  it('keeps the budget for a repository with more matches than it allows', () => {
    const r = page('zorbling repo:ws3');
    expect(ids(r)).toEqual([MIDDLE]);
    expect(r.totals.exact).toBe(false);
  });

  it('rolls a subagent up to its top-level session even when the subagent row names no repository', () => {
    fx.db.prepare('UPDATE sessions SET repository = NULL WHERE id = ?').run(SUBAGENT);
    try {
      expect(hits(page('zorbling repo:ws2'))).toEqual([[3, 1]]);
    } finally {
      fx.db.prepare("UPDATE sessions SET repository = 'ws2' WHERE id = ?").run(SUBAGENT);
    }
  });

  it('narrows the scan to the sessions a file: or ref: filter names, too', () => {
    expect(ids(page('zorbling file:gizmo'))).toEqual([OLDEST]);
    for (const q of ['zorbling file:gizmo', 'zorbling ref:4242', 'zorbling file:lib/gizmo.ts repo:ws2']) {
      const r = page(q);
      expect({ q, ids: ids(r), hits: hits(r), totals: r.totals }).toEqual({ q, ids: [OLDEST], hits: [[3, 1]], totals: { sessions: 1, events: 3, exact: true, scannedEvents: 3 } });
    }
    // a path no session of the repository touched
    expect(page('zorbling file:gizmo repo:ws1').totals).toEqual({ sessions: 0, events: 0, exact: true, scannedEvents: 0 });
  });

  it('matches no session: the scan reads nothing and the totals are exact', () => {
    const r = page('zorbling repo:nowhere');
    expect(r.totals).toMatchObject({ sessions: 0, exact: true });
  });

  it('reads a live session’s whole id range: the lines other sessions wrote between its appends count toward the budget', async () => {
    const main = fx.logsDir('ws2') + `/${OLDEST}/main.jsonl`;
    const newest = fx.logsDir() + `/${NEWEST}/main.jsonl`;
    for (let k = 0; k < 3; k++) {
      fs.appendFileSync(newest, reads(NEWEST, NOW - 10_000 + k * 100, 3));
      await fx.reindex();
      fs.appendFileSync(main, reads(OLDEST, NOW - 5_000 + k * 100, 1, 'zorbling-late'));
      await fx.reindex();
    }
    // ids 47–58: three of ws1, one of ws2, three times over. Newest first, the first page reads ws2's 58, ws1's
    // 55–57, ws2's 54, ws1's 51–53: eight matches read, its budget, two of them ws2's.
    const r = page('zorbling repo:ws2');
    expect(ids(r)).toEqual([OLDEST]);
    expect(hits(r)).toEqual([[2, 0]]);
    expect(r.totals).toMatchObject({ exact: false, scannedEvents: 8 });
    expect(hits(all('zorbling repo:ws2'))).toEqual([[6, 1]]);
  });
});

describe('the scan of a scope', () => {
  it('reads the other sessions’ matches inside a joined piece as rowids only, and stops after five times the budget of them', () => {
    // ids 1–20 are ws1's, 21–40 ws3's, 41–46 ws2's (its subagent's are 44–46): one piece over all of them, as
    // joinNearest makes when a repository's sessions are more than MAX_SCOPE_PIECES apart
    const num = (id: string) => fx.db.prepare('SELECT num FROM sessions WHERE id = ?').pluck().get(id) as number;
    const scope = { nums: [num(OLDEST), num(SUBAGENT)], ranges: [{ lo: 41, hi: 44 }], segments: [{ lo: 1, hi: 44, newestFirst: true }] };
    const q = parseSearch('zorbling');
    const r = scanEventHits(fx.db, q, null, { maxHits: 6, maxScanned: 4, maxMs: Infinity, chunk: 4 }, scope);
    // 20 of ws1's matches skipped (5 × 4): a lower bound, and a later page reads ids 1–20 again
    expect(r).toEqual({ groups: [], events: 0, exhausted: false, scanned: 0, read: [{ lo: 1, hi: 20, newestFirst: true }] });
    const whole = scanEventHits(fx.db, q, null, { maxHits: Infinity, maxScanned: Infinity, maxMs: Infinity }, scope);
    expect({ events: whole.events, scanned: whole.scanned, exhausted: whole.exhausted }).toEqual({ events: 3, scanned: 3, exhausted: true });
  });
});

describe('sessionScope', () => {
  it('is null without a session-level filter, and names the family of every top-level session that passes', () => {
    expect(sessionScope(fx.db, parseSearch('zorbling'))).toBeNull();
    // no index finds a branch's or a source's sessions, and each is most of them: filtered afterwards, as before
    expect(sessionScope(fx.db, parseSearch('zorbling source:vscode'))).toBeNull();
    expect(sessionScope(fx.db, parseSearch('zorbling branch:main'))).toBeNull();
    // a repository filter keeping more than half of the sessions (ws1, ws2 and ws3: all four)
    expect(sessionScope(fx.db, parseSearch('zorbling repo:ws'))).toBeNull();
    expect(sessionScope(fx.db, parseSearch('zorbling repo:nowhere'))).toEqual({ nums: [], ranges: [], segments: [] });
    const num = (id: string) => fx.db.prepare('SELECT num FROM sessions WHERE id = ?').pluck().get(id) as number;
    const scope = sessionScope(fx.db, parseSearch('zorbling repo:ws2'));
    expect(scope?.nums.slice().sort((a, b) => a - b)).toEqual([num(OLDEST), num(SUBAGENT)].sort((a, b) => a - b));
    expect(scope!.segments.length).toBeGreaterThan(0);
    expect(scope!.segments.length).toBeLessThanOrEqual(MAX_SCOPE_PIECES);
  });
});

describe('joinNearest and intersect', () => {
  const up = (lo: number, hi: number) => ({ lo, hi, newestFirst: true });
  const down = (lo: number, hi: number) => ({ lo, hi, newestFirst: false });

  it('cuts the ranges to each segment, newest first: ascending in a backfill’s run, descending after it', () => {
    const ranges = [{ lo: 1, hi: 3 }, { lo: 8, hi: 12 }, { lo: 20, hi: 30 }];
    expect(intersect(ranges, [down(11, 40), up(1, 10)])).toEqual([[down(20, 30), down(11, 12)], [up(1, 3), up(8, 10)]]);
  });

  it('closes the smallest gaps first, never across segments', () => {
    const pieces = [[down(50, 60), down(40, 47), down(10, 20)], [up(1, 2), up(4, 5)]];
    expect(joinNearest(pieces, 5)).toEqual([down(50, 60), down(40, 47), down(10, 20), up(1, 2), up(4, 5)]);
    expect(joinNearest(pieces, 4)).toEqual([down(50, 60), down(40, 47), down(10, 20), up(1, 5)]);
    expect(joinNearest(pieces, 3)).toEqual([down(40, 60), down(10, 20), up(1, 5)]);
    // one piece a segment at least
    expect(joinNearest(pieces, 1)).toEqual([down(10, 60), up(1, 5)]);
  });
});
