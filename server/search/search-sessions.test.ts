import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery, SearchResponse, type SearchQueryInput, type SearchSession } from '../../shared/api/search';
import { ApiError } from '../http/errors';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { matchIdsSql, planScan, scanEventHits } from './event-hits';
import { parseQuery } from './query-parser';
import { searchSessions } from './search-sessions';

const HOUR = 3_600_000;
const NOW = Date.now();
const RECENT = NOW - 2 * HOUR;
const OLD = NOW - 10 * 24 * HOUR;

const S1 = '11111111-1111-4111-8111-111111111111';
const C1 = 'c1c1c1c1-1111-4111-8111-111111111111'; // S1's subagent
const S2 = '22222222-2222-4222-8222-222222222222';
const S3 = '33333333-3333-4333-8333-333333333333';
const S4 = '44444444-4444-4444-8444-444444444444';

let seq = 0;
const ev = (sid: string, ts: number, type: string, attrs: object, o: { name?: string; status?: string; spanId?: string; parentSpanId?: string } = {}) =>
  line({ ts, dur: 0, sid, type, name: o.name ?? type, spanId: o.spanId ?? `span-${++seq}`, parentSpanId: o.parentSpanId, status: o.status ?? 'ok', attrs });
const response = (text: string) => JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]);

// S1 (ws1, recent): the reconnect bug, across a user message, a response, a tool call with a path, a model error,
// and a subagent (C1) whose tool result alone holds "zanzibar".
const S1_LOG =
  ev(S1, RECENT, 'user_message', { content: 'why does wsReconnectLoop spin forever?' }, { spanId: 'R1' }) +
  ev(S1, RECENT + 10, 'agent_response', { response: response('The reconnect loop has no backoff.') }, { parentSpanId: 'R1' }) +
  ev(S1, RECENT + 20, 'tool_call', { args: JSON.stringify({ filePath: '/w/src/ws/reconnect.ts' }), result: 'export function wsReconnectLoop() {}' }, { name: 'read_file', parentSpanId: 'R1' }) +
  ev(S1, RECENT + 30, 'llm_request', { model: 'gpt-4.1', error: 'Server error: 429 Too Many Requests' }, { name: 'chat:gpt-4.1', status: 'error', parentSpanId: 'R1' }) +
  ev(S1, RECENT + 40, 'child_session_ref', { childSessionId: C1, childLogFile: `runSubagent-Explore-${C1}.jsonl`, label: 'runSubagent-Explore' }, { name: 'runSubagent-Explore', spanId: `child-ref-${C1}`, parentSpanId: 'Y' });
const C1_LOG =
  line({ v: 1, ts: RECENT + 41, dur: 0, sid: C1, type: 'session_start', name: 'session_start', spanId: `session-start-${C1}`, status: 'ok', attrs: { parentSessionId: S1, label: 'runSubagent-Explore' } }) +
  ev(C1, RECENT + 42, 'tool_call', { args: '{"query":"zanzibar"}', result: 'found zanzibar in 3 files' }, { name: 'grep_search' });

// S2 (ws2, recent): Chinese, a phrase split by a line break, a PR ref from gh pr create.
const S2_LOG =
  ev(S2, RECENT + 100, 'user_message', { content: '日志怎么落盘?' }, { spanId: 'R2' }) +
  ev(S2, RECENT + 110, 'agent_response', { response: response('顺序是:先写内存的\nevents,再flush到磁盘。retry with\n   backoff') }, { parentSpanId: 'R2' }) +
  ev(S2, RECENT + 120, 'tool_call', { args: JSON.stringify({ command: 'gh pr create --fill' }), result: 'https://github.com/acme/api/pull/1234' }, { name: 'run_in_terminal', parentSpanId: 'R2' });

// S3 (ws2, ten days ago): the reconnect bug again, outside a 7-day window.
const S3_LOG = ev(S3, OLD, 'user_message', { content: 'retry with backoff in wsReconnectLoop' }, { spanId: 'R3' });

// S4 (ws1, recent; its repository removed below to land under "Other"): reconnect only in a discovery event.
const S4_LOG = ev(S4, RECENT + 200, 'discovery', { details: 'loaded reconnect-helper skill', category: 'discovery', source: 'core' }, { name: 'Load Skills' });

let fx: FixtureDb;

beforeAll(async () => {
  fx = await fixtureDb({
    [`${S1}/main.jsonl`]: S1_LOG,
    [`${S1}/runSubagent-Explore-${C1}.jsonl`]: C1_LOG,
    [`ws2:${S2}/main.jsonl`]: S2_LOG,
    [`ws2:${S3}/main.jsonl`]: S3_LOG,
    [`${S4}/main.jsonl`]: S4_LOG,
  });
  fx.db.prepare('UPDATE sessions SET repository = NULL WHERE id = ?').run(S4);
});
afterAll(() => fx.cleanup());

function search(q: string, o: Partial<SearchQueryInput> = {}): SearchResponse {
  return SearchResponse.parse(searchSessions(fx.db, SearchQuery.parse({ q, ...o }), NOW));
}
const ids = (r: SearchResponse) => r.groups.flatMap((g) => g.sessions.map((s) => s.id));
const session = (r: SearchResponse, id: string): SearchSession => {
  const s = r.groups.flatMap((g) => g.sessions).find((x) => x.id === id);
  if (!s) throw new Error(`${id} not in results`);
  return s;
};
const kinds = (s: SearchSession) => Object.fromEntries(s.kinds.map((k) => [k.kind, k.count]));
const badQuery = (q: string, o: Partial<SearchQueryInput> = {}) => {
  try {
    search(q, o);
  } catch (e) {
    if (e instanceof ApiError) return `${e.status} ${e.code}: ${e.message}`;
    throw e;
  }
  return 'no error';
};

describe('what a search finds', () => {
  it('an identifier fragment, in every place it occurs, grouped by repository with "Other" last here', () => {
    const r = search('Reconnect');
    expect(r.groups.map((g) => g.repository)).toEqual(['ws1', 'ws2', null]);
    expect(r.groups.map((g) => g.sessions.map((s) => s.id))).toEqual([[S1], [S3], [S4]]);
    expect(kinds(session(r, S1))).toEqual({ turn: 2, tool: 1, file: 1, meta: 1 });
    expect(kinds(session(r, S4))).toEqual({ discovery: 1 });
    expect(r.totals).toEqual({ sessions: 3, events: 5, exact: true, scannedEvents: 5 });
    expect(r.repositories).toEqual([
      { repository: 'ws1', sessions: 1 },
      { repository: 'ws2', sessions: 1 },
      { repository: null, sessions: 1 },
    ]);
  });

  it('each session links its best hits to their exact events, the first with a highlighted snippet', () => {
    const s = session(search('wsReconnectLoop'), S1);
    const [best, ...rest] = s.hits;
    expect(best).toMatchObject({ kind: 'turn', eventType: 'user_message', sessionId: S1, inSubagent: false });
    const raw = fx.db.prepare('SELECT type FROM events WHERE id = ?').get(best.eventId) as { type: string };
    expect(raw.type).toBe('user_message');
    expect(best.snippet?.text).toBe('why does wsReconnectLoop spin forever?');
    const [a, b] = best.snippet!.highlights[0];
    expect(best.snippet!.text.slice(a, b)).toBe('wsReconnectLoop');
    // the other places it matched are links; the title (meta) comes last
    expect(rest.map((h) => [h.kind, h.eventType, h.snippet])).toEqual([
      ['tool', 'tool_call', null],
      ['meta', null, null],
    ]);
  });

  it('a match inside a subagent rolls up to its session, linking to the event in the subagent log', () => {
    const r = search('zanzibar');
    expect(ids(r)).toEqual([S1]);
    const s = session(r, S1);
    expect(s.subagentHits).toBe(1);
    expect(s.hits[0]).toMatchObject({ kind: 'tool', sessionId: C1, inSubagent: true, name: 'grep_search' });
  });

  it("a subagent's title that matches is shown as the hit, not its session's title, which does not match", () => {
    fx.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run('先备份日志', C1); // 2 CJK characters: read by instr, titles as they are
    try {
      const s = session(search('备份'), S1);
      expect(kinds(s)).toEqual({ subagent: 1 });
      expect(s.hits).toEqual([{ kind: 'meta', eventId: null, sessionId: C1, inSubagent: true, eventType: null, name: null, ts: null, source: 'vscode', snippet: expect.any(Object) }]);
      const { text, highlights } = s.hits[0].snippet!;
      expect(highlights.map(([a, b]) => text.slice(a, b))).toEqual(['备份']);
      expect(text).toBe(`${C1} 先备份日志 runSubagent-Explore`);
    } finally {
      fx.db.prepare('UPDATE sessions SET title = NULL WHERE id = ?').run(C1);
    }
  });

  it('Chinese of one and two characters, and a phrase whose words are split by a line break', () => {
    expect(ids(search('落盘'))).toEqual([S2]);
    expect(ids(search('盘'))).toEqual([S2]);
    expect(ids(search('"内存的 events"'))).toEqual([S2]);
    expect(ids(search('"retry with backoff"')).sort()).toEqual([S2, S3].sort());
    expect(ids(search('"retry withbackoff"'))).toEqual([]);
  });

  it('metacharacters are literal and words are ANDed within one event; -word excludes', () => {
    expect(ids(search('"wsReconnectLoop()"'))).toEqual([S1]);
    expect(ids(search('reconnect backoff')).sort()).toEqual([S1, S3].sort());
    expect(ids(search('reconnect backoff -forever')).sort()).toEqual([S1, S3].sort());
    expect(kinds(session(search('reconnect backoff -spin'), S1))).toEqual({ turn: 1 });
    expect(ids(search('reconnect backoff -loop'))).toEqual([]);
    expect(ids(search('wsReconnectLoop -retry'))).toEqual([S1]);
  });

  it('a path is found by its text and by file:, also in the form the args escape', () => {
    expect(kinds(session(search('src/ws/reconnect.ts'), S1))).toMatchObject({ file: 1, tool: 1 });
    const byFile = search('file:ws/reconnect.ts');
    expect(ids(byFile)).toEqual([S1]);
    expect(byFile.groups[0].sessions[0].hits[0]).toMatchObject({ kind: 'file', eventType: 'tool_call' });
    expect(ids(search('file:nothing/like/this'))).toEqual([]);
  });

  // `Reconnect file:ts` marked "restar[ts]" in event text: a 1–2 character value is a fragment of many words.
  it('a file: value is marked in the paths it found, and in event text only from 3 characters', () => {
    const marked = (r: SearchResponse, id: string) => {
      const sn = session(r, id).hits[0].snippet!;
      return sn.highlights.map(([a, b]) => sn.text.slice(a, b));
    };
    expect(marked(search('wsReconnectLoop file:re'), S1)).toEqual(['wsReconnectLoop']); // not the "re" of "forever"
    expect(marked(search('file:re'), S1)).toEqual(['re']); // /w/src/ws/reconnect.ts
    expect(marked(search('forever file:reconnect.ts'), S1)).toEqual(['forever']);
    expect(marked(search('export file:reconnect.ts', { sort: 'recent' }), S1)).toContain('reconnect.ts');
  });

  it('a PR number is a ref: by ref: alone, or as the query word', () => {
    const r = search('ref:1234');
    expect(ids(r)).toEqual([S2]);
    expect(r.groups[0].sessions[0].hits[0].snippet?.text).toBe('PR #1234');
    expect(ids(search('ref:pr#1234'))).toEqual([S2]);
    expect(ids(search('ref:https://github.com/acme/api/pull/1234'))).toEqual([S2]);
    expect(ids(search('ref:issue#1234'))).toEqual([]);
    expect(kinds(session(search('1234'), S2))).toEqual({ ref: 1, tool: 1 });
  });
});

describe('filters and the window', () => {
  it('type:, tool:, model: and status: narrow the events a word is found in', () => {
    expect(ids(search('reconnect type:user'))).toEqual([S1, S3]);
    expect(ids(search('reconnect type:tool'))).toEqual([S1]);
    expect(ids(search('reconnect type:discovery'))).toEqual([S4]);
    expect(ids(search('Requests status:error'))).toEqual([S1]);
    expect(ids(search('Requests type:error model:gpt-4'))).toEqual([S1]);
    expect(ids(search('Requests model:claude'))).toEqual([]);
    expect(ids(search('zanzibar tool:grep'))).toEqual([S1]);
    expect(ids(search('zanzibar tool:read'))).toEqual([]);
    // titles, paths and refs are not events: an event filter leaves them out
    expect(kinds(session(search('reconnect type:user'), S1))).toEqual({ turn: 1 });
  });

  it('repo: and branch: apply to the top-level session (a subagent has no repository of its own)', () => {
    expect(ids(search('reconnect repo:ws2'))).toEqual([S3]);
    expect(ids(search('zanzibar repo:ws1'))).toEqual([S1]);
    expect(ids(search('reconnect branch:main'))).toEqual([]);
    expect(ids(search('reconnect file:reconnect.ts'))).toEqual([S1]);
    expect(ids(search('backoff ref:1234'))).toEqual([S2]);
  });

  it('the window keeps matches from its span only', () => {
    expect(ids(search('"retry with backoff"', { window: '7d' }))).toEqual([S2]);
    expect(ids(search('"retry with backoff"', { window: 'all' })).sort()).toEqual([S2, S3].sort());
    expect(ids(search('reconnect', { window: '24h' }))).toEqual([S1, S4]);
  });
});

describe('ranking, paging and budgets', () => {
  it('relevance puts the session that is about it first; recent orders by last activity', () => {
    const rel = search('reconnect', { sort: 'relevance' });
    expect(rel.groups[0].sessions[0].id).toBe(S1);
    expect(rel.groups[0].sessions[0].score).toBeGreaterThan(session(rel, S4).score);
    const recent = search('reconnect', { sort: 'recent' });
    // S4 is the newest, but "Other" (no repository) always comes last
    expect(recent.groups.map((g) => g.sessions[0].id)).toEqual([S1, S3, S4]);
    expect(search('"retry with backoff"', { sort: 'recent' }).groups[0].sessions.map((s) => s.id)).toEqual([S2, S3]);
  });

  it('perGroup shows "…and N more" with a cursor for the rest of that group', () => {
    const r = search('"retry with backoff"', { perGroup: 1 });
    expect(r.groups).toHaveLength(1);
    const g = r.groups[0];
    expect([g.repository, g.sessionCount, g.sessions.length, g.more]).toEqual(['ws2', 2, 1, 1]);
    const next = search('"retry with backoff"', { group: 'ws2', cursor: g.nextCursor!, limit: 10 });
    expect(next.groups[0].sessions.map((s) => s.id)).toEqual(ids(search('"retry with backoff"')).slice(1));
    expect(next.groups[0].nextCursor).toBeNull();
  });

  it('limit pages through groups with nextCursor; group "" is Other', () => {
    const first = search('reconnect', { limit: 1 });
    expect(first.groups.map((g) => g.repository)).toEqual(['ws1']);
    const second = search('reconnect', { limit: 1, cursor: first.nextCursor! });
    expect(second.groups.map((g) => g.repository)).toEqual(['ws2']);
    const third = search('reconnect', { limit: 1, cursor: second.nextCursor! });
    expect(third.groups.map((g) => g.repository)).toEqual([null]);
    expect(third.nextCursor).toBeNull();
    expect(ids(search('reconnect', { group: '' }))).toEqual([S4]);
  });

  it('a budget that stops early says so (totals are a lower bound), and later pages read the same range', () => {
    const input = SearchQuery.parse({ q: 'reconnect', perGroup: 1, limit: 1 });
    const budget = { maxHits: 2, maxScanned: 2, maxMs: Infinity, chunk: 2 };
    const first = searchSessions(fx.db, input, NOW, budget);
    expect(first.totals.exact).toBe(false);
    expect(first.totals.scannedEvents).toBe(2);
    const all = searchSessions(fx.db, SearchQuery.parse({ q: 'reconnect', depth: 'all' }), NOW);
    expect(all.totals.exact).toBe(true);
    expect(first.totals.events).toBeLessThan(all.totals.events);
    // page 2 sees exactly what page 1 saw
    const second = searchSessions(fx.db, { ...input, cursor: first.nextCursor! }, NOW, budget);
    expect(second.repositories).toEqual(first.repositories);
    expect(second.totals).toEqual(first.totals);
  });

  it('the scan reads only up to its budget of matches, newest first: a backfill gave the newest the lowest ids', () => {
    const q = parseQuery('reconnect');
    const r = scanEventHits(fx.db, q, null, { maxHits: 1, maxScanned: 1, maxMs: Infinity, chunk: 1 });
    expect([r.scanned, r.exhausted]).toEqual([1, false]);
    const minId = fx.db.prepare("SELECT min(rowid) FROM event_text WHERE event_text MATCH '\"reconnect\"'").pluck().get() as number;
    expect(r.groups[0].firstId).toBe(minId);
    expect(r.read).toEqual([{ lo: 1, hi: minId, newestFirst: true }]);
  });

  it('the time budget is checked between the chunks of one read, not only after it', () => {
    const r = scanEventHits(fx.db, parseQuery('reconnect'), null, { maxHits: 6000, maxScanned: 30000, maxMs: 0, chunk: 1 });
    expect([r.scanned, r.exhausted]).toEqual([1, false]);
    const all = scanEventHits(fx.db, parseQuery('reconnect'), null, { maxHits: 6000, maxScanned: 30000, maxMs: Infinity, chunk: 1 });
    expect(all.scanned).toBeGreaterThan(1);
    expect(all.exhausted).toBe(true);
  });

  it('the rowid bounds of a batch select exactly the slice after the previous one, in the segment order', () => {
    const plan = planScan(parseQuery('reconnect'))!;
    const read = (newestFirst: boolean, lo: number, hi: number) =>
      fx.db.prepare(matchIdsSql(plan, newestFirst)).pluck().all({ match: plan.match, lo, hi, limit: -1 }) as number[];
    const down = read(false, 1, Number.MAX_SAFE_INTEGER);
    expect(down.length).toBeGreaterThan(2);
    expect(read(true, 1, Number.MAX_SAFE_INTEGER)).toEqual([...down].reverse());
    expect(read(false, down[down.length - 1] + 1, down[0] - 1)).toEqual(down.slice(1, -1));
    expect(read(true, down[down.length - 1] + 1, down[0] - 1)).toEqual(down.slice(1, -1).reverse());
  });
});

describe('queries that cannot run are a 400 saying what to fix', () => {
  it('empty, too short, only exclusions, only event filters', () => {
    expect(badQuery('')).toMatch(/^400 bad_query: type something to search for/);
    expect(badQuery('io')).toMatch(/^400 bad_query: "io" is too short/);
    expect(badQuery('-retry')).toBe('400 bad_query: add a word to search for: "-retry" only excludes.');
    expect(badQuery('type:tool')).toMatch(/^400 bad_query: add a word to search for/);
    expect(badQuery('repo:ws1')).toMatch(/file: and ref: can search on their own/);
    expect(badQuery('retry type:nope')).toMatch(/^400 bad_query: type:nope is not a type/);
  });

  it('a cursor from elsewhere', () => {
    expect(badQuery('reconnect', { cursor: 'garbage' })).toMatch(/^400 bad_cursor/);
    const other = search('reconnect', { limit: 1 }).nextCursor!;
    expect(badQuery('backoff', { cursor: other })).toMatch(/^400 bad_cursor: this cursor belongs to another query/);
  });
});
