import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery } from '../../shared/api/search';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { planOf, recordStatements } from '../test-support/record-statements';
import { searchSessions } from './search-sessions';
import { clearStatements } from '../db/statements';

// The measured shape of every statement a search runs (issue 3: "it must come from an index, not a scan of
// every row"). Each statement is recorded with its parameters while a search runs, then EXPLAIN QUERY PLAN'd:
// the FTS tables are used through MATCH, events and lines are reached by primary key only, never scanned.
// (A 1–2 character CJK query also reads the titles and paths that hold a character beyond ASCII, through their
// partial indexes: trigrams cannot answer it and those tables have no per-character index; side-hits.test.ts.)

const S = 'aaaaaaaa-1111-4111-8111-111111111111';
const S2 = 'bbbbbbbb-2222-4222-8222-222222222222';
const S3 = 'cccccccc-3333-4333-8333-333333333333';
let fx: FixtureDb;
let seq = 0;
const ev = (type: string, attrs: object, name = type, status = 'ok') =>
  line({ ts: Date.now() - 1000 + seq, dur: 0, sid: S, type, name, spanId: `sp-${++seq}`, status, attrs });

beforeAll(async () => {
  fx = await fixtureDb({
    [`${S}/main.jsonl`]:
      ev('user_message', { content: '日志怎么落盘? wsReconnectLoop' }) +
      ev('tool_call', { args: JSON.stringify({ filePath: '/w/src/retry.ts' }), result: 'retry with backoff' }, 'read_file') +
      ev('tool_call', { args: JSON.stringify({ command: 'gh pr create' }), result: 'https://github.com/acme/api/pull/77' }, 'run_in_terminal') +
      ev('llm_request', { model: 'gpt-4.1', error: 'timeout reconnecting' }, 'chat:gpt-4.1', 'error') +
      ev('llm_request', { model: 'gpt-4.1', userRequest: '日志 wsReconnectLoop', inputMessages: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: '落盘 Reconnect retry with backoff' }] }]) }, 'chat:gpt-4.1'),
    [`${S}/system_prompt_0.json`]: JSON.stringify({ content: 'Reconnect 落盘 retry with backoff' }),
    // two sessions of another repository: repo:ws1 keeps a third of the sessions, and is narrowed (session-scope.ts)
    [`ws2:${S2}/main.jsonl`]: line({ ts: Date.now() - 5000, dur: 0, sid: S2, type: 'tool_call', name: 'read_file', spanId: '0000000000000001', status: 'ok', attrs: { result: 'Reconnect' } }),
    [`ws2:${S3}/main.jsonl`]: line({ ts: Date.now() - 6000, dur: 0, sid: S3, type: 'tool_call', name: 'read_file', spanId: '0000000000000001', status: 'ok', attrs: { result: 'Reconnect' } }),
  });
});
afterAll(() => fx.cleanup());

function plans(q: string, window: 'all' | '7d' = 'all'): { sql: string; plan: string[] }[] {
  clearStatements(fx.db); // statements are cached per connection: start empty to see them all prepared
  const recorded = recordStatements(fx.db, () => searchSessions(fx.db, SearchQuery.parse({ q, window })));
  expect(recorded.length).toBeGreaterThan(0);
  return recorded.map((r) => ({
    sql: r.sql.replace(/\s+/g, ' '),
    plan: planOf(fx.db, r),
  }));
}

const FULL_SCAN = /^SCAN (events|e|lines|l|session_refs|files)\b(?! VIRTUAL)/;

describe('query plans of a search', () => {
  for (const [label, q] of [
    ['a word', 'Reconnect'],
    ['a phrase with filters', '"retry with backoff" type:tool tool:read'],
    ['an error word with status and model', 'timeout status:error model:gpt'],
    ['two-character CJK', '落盘'],
    ['one-character CJK with a trigram word', '盘 Reconnect'],
    ['a path', 'file:src/retry'],
    ['a ref', 'ref:77'],
    ['an exclusion across indexes', 'Reconnect -盘'],
    // the scope's files by session number, their first and last lines by lines_file (session-scope.ts)
    ['session-level filters', 'Reconnect repo:ws1 source:vscode'],
  ] as const) {
    it(`${label} (${q}): FTS through MATCH, events and lines by primary key, no full scans`, () => {
      for (const { sql, plan } of plans(q, '7d')) {
        const text = plan.join(' | ');
        for (const step of plan) expect([sql, step]).not.toEqual([sql, expect.stringMatching(FULL_SCAN)]);
        // an FTS table is only ever read through its full-text index (idxStr holds M for MATCH)
        for (const m of text.matchAll(/SCAN (event_text|event_cjk|prompt_text|prompt_cjk|companion_text|companion_cjk|session_text|file_text|t) VIRTUAL TABLE INDEX \d+:(\S*)/g)) expect([sql, m[1], m[2]]).toEqual([sql, m[1], expect.stringContaining('M')]);
        // where a session stands among the lines (its folder's first event, side-hits.ts): seeks of the sessions by
        // id and of the events' index by (session, time)
        if (sql.includes('e.session_num = f.num')) expect([sql, text]).toEqual([sql, expect.stringMatching(/SEARCH f USING INDEX sqlite_autoindex_sessions_1 \(id=\?\) \| SEARCH e USING COVERING INDEX events_session_ts \(session_num=\?\)/)]);
        else if (/\bFROM events\b|JOIN events\b/.test(sql)) expect([sql, text]).toEqual([sql, expect.stringMatching(/SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)|SEARCH events USING INTEGER PRIMARY KEY/)]);
        if (/\bFROM lines\b/.test(sql)) expect(text).toMatch(/SEARCH lines USING INTEGER PRIMARY KEY/);
      }
    });
  }

  it('matches come from the trigram index (newest rowid first, no sort), events by primary key per chunk', () => {
    const p = plans('Reconnect');
    const ids = p.filter((x) => x.sql.startsWith('SELECT rowid FROM event_text WHERE event_text MATCH'));
    // one step: FTS5 itself returns rowids in either order (no "USE TEMP B-TREE FOR ORDER BY") and seeks within
    // the segment after the previous batch (`><`: the bounds are INTEGERs, see matchIdsSql)
    expect(ids.length).toBeGreaterThan(0);
    for (const x of ids) expect(x.plan).toEqual([expect.stringMatching(/^SCAN event_text VIRTUAL TABLE INDEX \d+:M1><$/)]);
    const groups = p.find((x) => x.sql.includes('GROUP BY e.session_num'));
    expect(groups?.plan).toEqual([expect.stringMatching(/^SCAN j VIRTUAL TABLE INDEX \d+:$/), 'SEARCH e USING INTEGER PRIMARY KEY (rowid=?)', 'USE TEMP B-TREE FOR GROUP BY']);
  });

  it('two-character CJK drives from event_cjk; a CJK term beside a trigram word is one range query per chunk', () => {
    const ids = plans('落盘').find((x) => x.sql.startsWith('SELECT rowid FROM event_cjk WHERE event_cjk MATCH'));
    expect(ids?.plan).toEqual([expect.stringMatching(/^SCAN event_cjk VIRTUAL TABLE INDEX \d+:M1><$/)]);
    const mixed = plans('盘 Reconnect').find((x) => x.sql.includes('GROUP BY e.session_num'));
    expect(mixed?.plan.join(' | ')).toMatch(/SCAN event_cjk VIRTUAL TABLE INDEX \d+:M1>?<?/);
  });

  it('prompts and companion files: their FTS through MATCH, newest first; their rows and events by primary key', () => {
    for (const q of ['Reconnect', '落盘', 'Reconnect -日志']) {
      const p = plans(q);
      const docs = p.find((x) => x.sql.includes('FROM json_each(@ids) j CROSS JOIN search.prompt_docs'));
      expect([q, docs?.plan]).toEqual([q, [expect.stringMatching(/^SCAN j VIRTUAL TABLE INDEX \d+:$/), 'SEARCH d USING INTEGER PRIMARY KEY (rowid=?)', 'SEARCH e USING INTEGER PRIMARY KEY (rowid=?)', 'USE TEMP B-TREE FOR GROUP BY']]);
      const companions = p.find((x) => x.sql.includes('CROSS JOIN companions'));
      expect([q, companions?.plan.slice(0, 2)]).toEqual([q, [expect.stringMatching(/^SCAN j VIRTUAL TABLE INDEX \d+:$/), 'SEARCH c USING INTEGER PRIMARY KEY (rowid=?)']]);
      for (const t of ['prompt', 'companion']) {
        const ids = p.find((x) => new RegExp(`^SELECT rowid FROM ${t}_(text|cjk) WHERE`).test(x.sql));
        expect([q, ids?.plan[0]]).toEqual([q, expect.stringMatching(new RegExp(`^SCAN ${t}_(text|cjk) VIRTUAL TABLE INDEX \\d+:M1(><)?$`))]);
      }
    }
  });

  it('ref: seeks the (ref_type, ref_value) index', () => {
    const refs = plans('ref:77').filter((x) => x.sql.includes('FROM session_refs'));
    expect(refs.length).toBeGreaterThan(0);
    // each line segment's refs of one value are a range of ids in the index's entries (newest-rowids.ts)
    for (const r of refs) expect(r.plan.join(' ')).toMatch(/SEARCH session_refs USING COVERING INDEX idx_session_refs_type_value \(ref_type=\? AND ref_value=\? AND rowid>\? AND rowid<\?\)/);
    const commits = plans('ref:commit:abc1234').filter((x) => x.sql.includes('FROM session_refs'));
    expect(commits.length).toBeGreaterThan(0);
    for (const r of commits) expect(r.plan.join(' ')).toMatch(/SEARCH session_refs USING COVERING INDEX idx_session_refs_type_value \(ref_type=\? AND ref_value>\? AND ref_value<\?\)/);
  });

  it('a repo: filter finds its sessions by the repository and parent indexes, each file’s first and last line by lines_file', () => {
    const all = plans('Reconnect repo:ws1');
    const of = (text: string) => all.find((x) => x.sql.includes(text))?.plan;
    expect(of('SELECT DISTINCT repository')).toEqual(['SEARCH main.sessions USING COVERING INDEX idx_sessions_repo (repository>?)']);
    expect(of('SELECT coalesce(max(num), 0) FROM main.sessions')).toEqual(['SEARCH main.sessions USING COVERING INDEX sqlite_autoindex_sessions_2']);
    expect(of('SELECT count(*) FROM main.sessions WHERE repository IN')?.[0]).toBe('SEARCH main.sessions USING COVERING INDEX idx_sessions_repo (repository=?)');
    expect(of('SELECT num, id, repository, branch, source FROM main.sessions')?.[0]).toBe('SEARCH main.sessions USING INDEX idx_sessions_repo (repository=?)');
    expect(of('WHERE parent_id IN')?.[0]).toBe('SEARCH main.sessions USING INDEX idx_sessions_parent (parent_id=?)');
    expect(of('min(id) FROM main.lines')).toEqual([
      'SEARCH f USING COVERING INDEX files_session (session_id=?)',
      'LIST SUBQUERY 3',
      'SCAN json_each VIRTUAL TABLE INDEX 1:',
      'CORRELATED SCALAR SUBQUERY 1',
      'SEARCH main.lines USING COVERING INDEX lines_file (file_id=?)',
      'CORRELATED SCALAR SUBQUERY 2',
      'SEARCH main.lines USING COVERING INDEX lines_file (file_id=?)',
    ]);
  });
});
