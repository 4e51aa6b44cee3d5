import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { FIRST_PAGE_LIMITS } from './event-hits';
import { companionHits, promptHits } from './prompt-hits';
import { fileHits, metaHits, refsEqual, sessionsWithFile } from './side-hits';
import { parseSearch, searchSessions } from './search-sessions';

// A backfill gives ids to whole sessions newest first (server/ingest/backfill-order.ts): the newest session has
// the lowest ids. The first page of a search reads a budget of matches; read by descending id it read the oldest
// sessions, and a window of the last week found nothing in them (server/db/id-order.ts).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const SESSIONS = [
  { id: '0a0a0a0a-0000-4000-8000-000000000001', at: NOW - 40 * DAY },
  { id: '0b0b0b0b-0000-4000-8000-000000000002', at: NOW - 20 * DAY },
  { id: '0c0c0c0c-0000-4000-8000-000000000003', at: NOW - 2 * HOUR },
];
const [OLDEST, OLDER, NEWEST] = SESSIONS.map((s) => s.id);

/** Span ids as the writer gives them: a counter that starts again at 0000000000000001 in every session (FORMAT §10). */
const spans = new Map<string, number>();
const nextSpan = (sid: string) => {
  const n = (spans.get(sid) ?? 0) + 1;
  spans.set(sid, n);
  return n.toString(16).padStart(16, '0');
};
const toolCalls = (sid: string, at: number, count: number) =>
  Array.from({ length: count }, (_, i) =>
    line({ ts: at + i, dur: 0, sid, type: 'tool_call', name: 'read_file', spanId: nextSpan(sid), status: 'ok', attrs: { args: '{}', result: `wsReconnectLoop step ${i}` } }),
  ).join('');

/** A model call sent a prompt of its own: a prompt_docs row per session, numbered in the backfill's order too. */
const modelCall = (sid: string, at: number) =>
  line({ ts: at, dur: 5, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId: nextSpan(sid), status: 'ok', attrs: { model: 'gpt-4.1', inputMessages: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `quillmarrow in ${sid}` }] }]) } });

/** A path the session touched: a session_files row, numbered in the backfill's order too (CJK in it: 1–2 character terms read it by instr). */
const fileRead = (sid: string, at: number) =>
  line({ ts: at, dur: 0, sid, type: 'tool_call', name: 'read_file', spanId: nextSpan(sid), status: 'ok', attrs: { args: JSON.stringify({ filePath: `/w/src/zephyrpath-${sid.slice(0, 4)}-落盘.ts` }), result: 'ok' } });

/** A PR and a commit the session looked at: session_refs rows, numbered in the backfill's order too. */
const refCalls = (sid: string, at: number) =>
  line({ ts: at, dur: 0, sid, type: 'tool_call', name: 'mcp_github_get_pull_request', spanId: nextSpan(sid), status: 'ok', attrs: { args: JSON.stringify({ pullNumber: 4242 }), result: 'ok' } }) +
  line({ ts: at + 1, dur: 0, sid, type: 'tool_call', name: 'mcp_github_get_commit', spanId: nextSpan(sid), status: 'ok', attrs: { args: JSON.stringify({ sha: 'c0ffee1234567' }), result: 'ok' } });

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({});
  // written oldest first, dated as written: the backfill reads them the other way round
  for (const s of SESSIONS) {
    const file = path.join(fx.logsDir(), s.id, 'main.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, toolCalls(s.id, s.at, 4) + modelCall(s.id, s.at + 100) + fileRead(s.id, s.at + 200) + refCalls(s.id, s.at + 300));
    fs.utimesSync(file, (s.at + 10) / 1000, (s.at + 10) / 1000);
    // a system prompt beside it (FORMAT §2.2): a companion row, numbered in the backfill's order too
    const prompt = path.join(path.dirname(file), 'system_prompt_0.json');
    fs.writeFileSync(prompt, JSON.stringify({ content: `You are zephyrglint, helping in ${s.id}` }));
    fs.utimesSync(prompt, s.at / 1000, s.at / 1000);
  }
  await fx.reindex();
});
afterAll(() => fx.cleanup());

/** A first page whose budget is four matches: one session's worth. */
const BUDGET = { maxHits: 4, maxScanned: 4, maxMs: Infinity, chunk: 4 };
const firstPage = (q: string, window: '7d' | 'all' = 'all', cursor?: string): SearchResponse =>
  searchSessions(fx.db, SearchQuery.parse({ q, window, ...(cursor ? { cursor } : {}) }), NOW, BUDGET);
/** A session's number, as prompt and title hits name it. */
const num = (sid: string) => fx.db.prepare('SELECT num FROM sessions WHERE id = ?').pluck().get(sid);
const ids = (r: SearchResponse) => r.groups.flatMap((g) => g.sessions.map((s) => s.id));
/** Every session titled `title` while `run` runs (a title is what a title request of the session wrote). */
const withTitles = (title: string, run: () => void) => {
  const before = fx.db.prepare('SELECT id, title FROM sessions').all() as { id: string; title: string | null }[];
  fx.db.prepare('UPDATE sessions SET title = ?').run(title);
  try {
    run();
  } finally {
    for (const s of before) fx.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(s.title, s.id);
  }
};

describe('a budgeted first page reads the newest matches first', () => {
  it('the backfill gave the newest session the lowest ids', () => {
    const first = (sid: string) => fx.db.prepare('SELECT min(e.id) FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = ?').pluck().get(sid) as number;
    expect(first(NEWEST)).toBeLessThan(first(OLDER));
    expect(first(OLDER)).toBeLessThan(first(OLDEST));
  });

  it("this week's matches are found within the budget", () => {
    const r = firstPage('Reconnect type:tool', '7d');
    expect(ids(r)).toEqual([NEWEST]);
    expect(r.totals).toEqual({ sessions: 1, events: 4, exact: false, scannedEvents: 4 });
  });

  it('without a window, the newest session is the one read', () => {
    const r = firstPage('Reconnect');
    expect(ids(r)).toEqual([NEWEST]);
    expect(r.totals.exact).toBe(false);
  });

  it('a capped read of the prompts reads the newest session first too', () => {
    const nums = promptHits(fx.db, parseSearch('quillmarrow'), null, 1);
    expect(nums.capped).toBe(true);
    expect(nums.rows.map((r) => r.sessionNum)).toEqual([num(NEWEST)]);
    expect(promptHits(fx.db, parseSearch('quillmarrow'), null, 2).rows.map((r) => r.sessionNum).sort()).toEqual([num(NEWEST), num(OLDER)].sort());
    expect(promptHits(fx.db, parseSearch('quillmarrow'), null, Infinity).rows.length).toBe(3);
  });

  it('a capped read of the paths sessions touched reads the newest session first too', () => {
    const first = fileHits(fx.db, parseSearch('zephyrpath'), 1);
    expect(first.capped).toBe(true);
    expect(first.rows.map((f) => f.sessionId)).toEqual([NEWEST]);
    expect(fileHits(fx.db, parseSearch('zephyrpath'), 2).rows.map((f) => f.sessionId)).toEqual([NEWEST, OLDER]);
    expect(sessionsWithFile(fx.db, 'zephyrpath', 1)).toEqual({ rows: [expect.objectContaining({ sessionId: NEWEST })], capped: true });
    expect(fileHits(fx.db, parseSearch('zephyrpath'), 3)).toEqual({ rows: [NEWEST, OLDER, OLDEST].map((sessionId) => expect.objectContaining({ sessionId })), capped: false });
  });

  // A `ref:` filter read up to 5,000 rows a value in index order (oldest first) and never said it had capped.
  it('a capped read of the refs (a PR number, a commit prefix) reads the newest session first too, and says so', () => {
    expect(refsEqual(fx.db, { type: 'pr', value: '4242' }, 1)).toEqual({ rows: [expect.objectContaining({ sessionId: NEWEST, type: 'pr', value: '4242' })], capped: true });
    expect(refsEqual(fx.db, { type: null, value: '4242' }, 2).rows.map((r) => r.sessionId)).toEqual([NEWEST, OLDER]);
    expect(refsEqual(fx.db, { type: 'commit', value: 'C0FFEE1' }, 2)).toEqual({ rows: [NEWEST, OLDER].map((sessionId) => expect.objectContaining({ sessionId, value: 'c0ffee1234567' })), capped: true });
    expect(refsEqual(fx.db, { type: null, value: 'c0ffee1234567' }, 3)).toEqual({ rows: [NEWEST, OLDER, OLDEST].map((sessionId) => expect.objectContaining({ sessionId, type: 'commit' })), capped: false });
  });

  it('a capped read of the session titles and ids reads the newest session first too', () => {
    expect(metaHits(fx.db, parseSearch('4000-8000'), 1)).toEqual({ rows: [expect.objectContaining({ num: num(NEWEST) })], capped: true });
    expect(metaHits(fx.db, parseSearch('4000-8000'), 2).rows.map((h) => h.num)).toEqual([num(NEWEST), num(OLDER)]);
    expect(metaHits(fx.db, parseSearch('4000-8000'), 3).capped).toBe(false);
  });

  it('a capped read for 1–2 characters (CJK paths and titles, a short file: filter) reads the newest session first too', () => {
    expect(fileHits(fx.db, parseSearch('落盘'), 1)).toEqual({ rows: [expect.objectContaining({ sessionId: NEWEST })], capped: true });
    expect(fileHits(fx.db, parseSearch('落盘'), 3)).toEqual({ rows: [NEWEST, OLDER, OLDEST].map((sessionId) => expect.objectContaining({ sessionId })), capped: false });
    expect(sessionsWithFile(fx.db, 'ts', 1)).toEqual({ rows: [expect.objectContaining({ sessionId: NEWEST })], capped: true });
    expect(sessionsWithFile(fx.db, 'ts', 2).rows.map((f) => f.sessionId)).toEqual([NEWEST, OLDER]);
    withTitles('落盘的顺序', () => {
      expect(metaHits(fx.db, parseSearch('落盘'), 1)).toEqual({ rows: [expect.objectContaining({ num: num(NEWEST) })], capped: true });
      expect(metaHits(fx.db, parseSearch('落盘'), 3).rows.map((h) => h.num)).toEqual([NEWEST, OLDER, OLDEST].map(num));
    });
  });

  it('a capped read of the companion files reads the newest session first too', () => {
    const first = companionHits(fx.db, parseSearch('zephyrglint'), 1);
    expect(first.capped).toBe(true);
    expect(first.rows.map((c) => c.sessionId)).toEqual([NEWEST]);
    expect(companionHits(fx.db, parseSearch('zephyrglint'), 2).rows.map((c) => c.sessionId).sort()).toEqual([NEWEST, OLDER].sort());
    const all = companionHits(fx.db, parseSearch('zephyrglint'), Infinity);
    expect(all).toEqual({ rows: [OLDEST, OLDER, NEWEST].map((sessionId) => expect.objectContaining({ sessionId, kind: 'system_prompt' })), capped: false });
  });

  it('lines appended after the backfill are newer still, and read before it', async () => {
    const file = path.join(fx.logsDir(), OLDEST, 'main.jsonl');
    fs.appendFileSync(file, toolCalls(OLDEST, NOW - HOUR, 4));
    await fx.reindex();
    expect(ids(firstPage('Reconnect type:tool', '7d'))).toEqual([OLDEST]);
    const all = searchSessions(fx.db, SearchQuery.parse({ q: 'Reconnect', depth: 'all' }), NOW);
    expect(all.totals).toEqual({ sessions: 3, events: 16, exact: true, scannedEvents: 16 });
  });

  it('a companion stored after every line is read first', async () => {
    const tools = path.join(fx.logsDir(), OLDEST, 'tools_1.json');
    fs.writeFileSync(tools, JSON.stringify({ content: JSON.stringify([{ name: 'zephyrglint_probe', description: 'probe' }]) }));
    await fx.reindex();
    const placed = fx.db.prepare("SELECT at_line FROM companions WHERE name = 'tools_1.json'").pluck().get();
    expect(placed).toBe(fx.db.prepare('SELECT max(id) FROM lines').pluck().get());
    const first = companionHits(fx.db, parseSearch('zephyrglint'), 1);
    expect(first.rows).toEqual([expect.objectContaining({ sessionId: OLDEST, kind: 'tools' })]);
  });

  it("an older archive's companions, placed nowhere, are still read", () => {
    const placed = fx.db.prepare('SELECT id, at_line FROM companions').all() as { id: number; at_line: number }[];
    fx.db.prepare('UPDATE companions SET at_line = NULL').run();
    try {
      expect(companionHits(fx.db, parseSearch('zephyrglint'), 10)).toEqual({ rows: expect.any(Array), capped: false });
      expect(companionHits(fx.db, parseSearch('zephyrglint'), 10).rows.map((c) => c.name).sort()).toEqual(['system_prompt_0.json', 'system_prompt_0.json', 'system_prompt_0.json', 'tools_1.json']);
      expect(companionHits(fx.db, parseSearch('zephyrglint'), 3).capped).toBe(true);
    } finally {
      for (const p of placed) fx.db.prepare('UPDATE companions SET at_line = ? WHERE id = ?').run(p.at_line, p.id);
    }
  });

  it('an archive written before at_line, opened read-only, reads its companions as before', () => {
    const copy = path.join(fx.logsDir(), '..', 'before-at-line.db');
    fx.db.prepare('VACUUM INTO ?').run(copy);
    const old = new Database(copy);
    old.exec('ALTER TABLE companions DROP COLUMN at_line');
    old.close();
    const db = openReadDb(copy);
    try {
      expect(companionHits(db, parseSearch('zephyrglint'), 10).rows.map((c) => c.name).sort()).toEqual(['system_prompt_0.json', 'system_prompt_0.json', 'system_prompt_0.json', 'tools_1.json']);
    } finally {
      db.close();
    }
  });

  it('the first page is bounded by counts, not the clock: the same query shows the same sessions', () => {
    expect(FIRST_PAGE_LIMITS.maxScanned).toBeLessThan(10_000);
    const q = SearchQuery.parse({ q: 'Reconnect type:tool' });
    const runs = [1, 2, 3].map(() => searchSessions(fx.db, q, NOW).totals);
    expect(runs).toEqual([runs[0], runs[0], runs[0]]);
  });

  it("a path first touched, or a session begun, after the backfill is read before the backfill's", async () => {
    const LIVE = '0d0d0d0d-0000-4000-8000-000000000004';
    const file = path.join(fx.logsDir(), LIVE, 'main.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, fileRead(LIVE, NOW - 60_000));
    await fx.reindex();
    expect(fileHits(fx.db, parseSearch('zephyrpath'), 1).rows.map((f) => f.sessionId)).toEqual([LIVE]);
    expect(sessionsWithFile(fx.db, 'zephyrpath', 2).rows.map((f) => f.sessionId)).toEqual([LIVE, NEWEST]);
    expect(metaHits(fx.db, parseSearch('4000-8000'), 2).rows.map((h) => h.num)).toEqual([num(LIVE), num(NEWEST)]);
    expect(fileHits(fx.db, parseSearch('落盘'), 2).rows.map((f) => f.sessionId)).toEqual([LIVE, NEWEST]);
    expect(sessionsWithFile(fx.db, 'ts', 2).rows.map((f) => f.sessionId)).toEqual([LIVE, NEWEST]);
    withTitles('落盘', () => expect(metaHits(fx.db, parseSearch('落盘'), 2).rows.map((h) => h.num)).toEqual([num(LIVE), num(NEWEST)]));
  });
});
