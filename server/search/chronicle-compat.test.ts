import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

// Chronicle compatibility (issue 3.6): the queries FORMAT §5.3 and §5.7 document — and that the chronicle
// skill writes — run unchanged against our database and return the right sessions.

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';
const T = Date.now() - 3_600_000;
let seq = 0;
const ev = (sid: string, type: string, attrs: object, o: { name?: string; spanId?: string; parentSpanId?: string } = {}) =>
  line({ ts: T + ++seq, dur: 0, sid, type, name: o.name ?? type, spanId: o.spanId ?? `sp-${seq}`, parentSpanId: o.parentSpanId, status: 'ok', attrs });
const response = (text: string) => JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]);

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({
    // A: a turn about "apply patch" and an edit of a file under copilot/
    [`${A}/main.jsonl`]:
      ev(A, 'user_message', { content: 'please apply the patch to the retry loop' }, { spanId: 'RA' }) +
      ev(A, 'agent_response', { response: response('Done: apply patch succeeded.') }, { parentSpanId: 'RA' }) +
      ev(A, 'tool_call', { args: JSON.stringify({ filePath: '/w/extensions/copilot/src/retry.ts' }), result: 'ok' }, { name: 'read_file', parentSpanId: 'RA' }),
    // B: a PR it opened
    [`${B}/main.jsonl`]:
      ev(B, 'user_message', { content: 'open a pull request' }, { spanId: 'RB' }) +
      ev(B, 'tool_call', { args: JSON.stringify({ command: 'gh pr create --fill' }), result: 'https://github.com/acme/api/pull/1234' }, { name: 'run_in_terminal', parentSpanId: 'RB' }),
    // C: "patch" alone, never "apply patch"
    [`${C}/main.jsonl`]: ev(C, 'user_message', { content: 'patch the docs' }, { spanId: 'RC' }),
  });
});
afterAll(() => fx.cleanup());

const col = (rows: unknown[], k: string) => (rows as Record<string, unknown>[]).map((r) => r[k]);

describe('Chronicle queries (FORMAT §5.3, §5.7) on our database', () => {
  it('search_index MATCH projecting session_id, ranked by bm25 (the store’s built-in search)', () => {
    const rows = fx.db
      .prepare('SELECT content, session_id, source_type, bm25(search_index) AS rank FROM search_index WHERE search_index MATCH ? ORDER BY rank LIMIT 20')
      .all('apply patch');
    expect(new Set(col(rows, 'session_id'))).toEqual(new Set([A]));
    expect(col(rows, 'source_type')).toEqual(['turn']);
  });

  it('a quoted phrase, single quotes doubled, and the documented snippet()', () => {
    const phrase = fx.db.prepare(`SELECT DISTINCT session_id FROM search_index WHERE search_index MATCH '"apply patch"'`).all();
    expect(col(phrase, 'session_id')).toEqual([A]);
    const word = fx.db.prepare(`SELECT DISTINCT session_id FROM search_index WHERE search_index MATCH 'patch' ORDER BY session_id`).all();
    expect(col(word, 'session_id')).toEqual([A, C]);
    const snip = fx.db
      .prepare(`SELECT session_id, snippet(search_index, 0, '[', ']', '…', 12) AS snippet FROM search_index WHERE search_index MATCH 'apply patch' LIMIT 50`)
      .all() as { snippet: string }[];
    expect(snip[0].snippet).toContain('[apply]');
    expect(fx.db.prepare(`SELECT count(*) n FROM search_index WHERE search_index MATCH '"it''s"'`).get()).toEqual({ n: 0 });
  });

  it('LIKE on session_files.file_path joined to sessions', () => {
    const rows = fx.db
      .prepare(
        `SELECT s.id, s.repository, s.branch, s.summary, s.updated_at, f.file_path FROM session_files f JOIN sessions s ON s.id = f.session_id
         WHERE f.file_path LIKE '%copilot%'`,
      )
      .all();
    expect(col(rows, 'id')).toEqual([A]);
    expect(col(rows, 'file_path')).toEqual(['/w/extensions/copilot/src/retry.ts']);
    expect(col(rows, 'repository')).toEqual(['ws1']);
  });

  it('LIKE on session_refs.ref_value joined to sessions', () => {
    const rows = fx.db
      .prepare(
        `SELECT s.id, s.repository, s.branch, s.summary, s.updated_at, r.ref_type, r.ref_value FROM session_refs r JOIN sessions s ON s.id = r.session_id
         WHERE r.ref_value LIKE '%1234%'`,
      )
      .all();
    expect(rows).toEqual([expect.objectContaining({ id: B, ref_type: 'pr', ref_value: '1234' })]);
  });

  it('the skill’s combined search: FTS ∪ files ∪ refs, metadata once, newest first, LIMIT 50', () => {
    const sql = `WITH hits AS (
        SELECT session_id, 'turn' AS match_kind FROM search_index WHERE search_index MATCH ?
        UNION SELECT session_id, 'file' FROM session_files WHERE file_path LIKE ?
        UNION SELECT session_id, 'ref' FROM session_refs WHERE ref_value LIKE ?)
      SELECT s.id, s.repository, s.branch, s.summary, s.updated_at, group_concat(DISTINCT h.match_kind) AS kinds
      FROM hits h JOIN sessions s ON s.id = h.session_id
      WHERE s.updated_at >= ?
      GROUP BY s.id ORDER BY s.updated_at DESC LIMIT 50`;
    const since = new Date(Date.now() - 90 * 86_400_000).toISOString();
    const rows = fx.db.prepare(sql).all('"retry"', '%retry%', '%retry%', since) as { id: string; kinds: string; summary: string }[];
    expect(rows.map((r) => [r.id, r.kinds.split(',').sort().join(',')])).toEqual([[A, 'file,turn']]);
    expect(rows[0].summary).toBe('please apply the patch to the retry loop');
    const pr = fx.db.prepare(sql).all('"1234"', '%1234%', '%1234%', since) as { id: string; kinds: string }[];
    expect(pr.map((r) => [r.id, r.kinds])).toEqual([[B, 'ref']]);
  });
});

describe('Chronicle’s turns (FORMAT §5.5, with §9’s corrections)', () => {
  it('one turn per user request with its response; NULL for an unparseable response; nothing unpaired', async () => {
    const S = 'dddddddd-0000-4000-8000-000000000004';
    const span = (n: number) => n.toString(16).padStart(16, '0');
    const cut = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'a long answer ' + 'z'.repeat(6000) }] }]).slice(0, 5000) + '[truncated]';
    const toolsOnly = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'read_file', arguments: '{}' }] }]);
    const withReasoning = JSON.stringify([{ role: 'assistant', parts: [{ type: 'reasoning', content: 'thinking it over' }, { type: 'text', content: 'the answer is 42' }] }]);
    const sx = await fixtureDb({
      [`${S}/main.jsonl`]:
        // request 1: three model calls (tool loop); two answer in text. Chronicle's reindex makes two turns here,
        // one per model call (§9.10); the user made one request.
        ev(S, 'user_message', { content: 'first question' }, { spanId: span(1) }) +
        ev(S, 'agent_response', { response: toolsOnly }, { spanId: `agent-msg-${span(2)}`, parentSpanId: span(1) }) +
        ev(S, 'agent_response', { response: response('part one') }, { spanId: `agent-msg-${span(3)}`, parentSpanId: span(1) }) +
        ev(S, 'agent_response', { response: response('part two') }, { spanId: `agent-msg-${span(4)}`, parentSpanId: span(1) }) +
        // request 2: the answer was cut at 5,000 characters (invalid JSON, no OTel marker): NULL, as Chronicle
        ev(S, 'user_message', { content: 'second question' }, { spanId: span(5) }) +
        ev(S, 'agent_response', { response: cut }, { spanId: `agent-msg-${span(6)}`, parentSpanId: span(5) }) +
        // request 3, malformed: the responses' parentSpanId names nothing (evicted from the writer's map) or is
        // missing; they answer the pending request, not turns of their own. Only text parts are the answer.
        ev(S, 'user_message', { content: 'third question' }, { spanId: span(7) }) +
        ev(S, 'agent_response', { response: withReasoning }, { spanId: `agent-msg-${span(8)}`, parentSpanId: span(99) }) +
        ev(S, 'agent_response', { response: response('and a footnote') }, { spanId: `agent-msg-${span(9)}` }) +
        // request 4: no answer yet (the session ends here), like Chronicle's trailing pending message
        ev(S, 'user_message', { content: 'fourth question' }, { spanId: span(10) }),
    });
    try {
      expect(sx.db.prepare('SELECT turn_index, user_message, assistant_response FROM turns WHERE session_id = ? ORDER BY turn_index').all(S)).toEqual([
        { turn_index: 0, user_message: 'first question', assistant_response: 'part one\npart two' },
        { turn_index: 1, user_message: 'second question', assistant_response: null },
        { turn_index: 2, user_message: 'third question', assistant_response: 'the answer is 42\nand a footnote' },
        { turn_index: 3, user_message: 'fourth question', assistant_response: null },
      ]);
      // Chronicle's FTS rows follow the turns
      expect(sx.db.prepare("SELECT source_id, content FROM search_index WHERE session_id = ? ORDER BY rowid").all(S)).toEqual([
        { source_id: `${S}:turn:0`, content: 'first question\npart one\npart two' },
        { source_id: `${S}:turn:1`, content: 'second question' },
        { source_id: `${S}:turn:2`, content: 'third question\nthe answer is 42\nand a footnote' },
        { source_id: `${S}:turn:3`, content: 'fourth question' },
      ]);
    } finally {
      sx.cleanup();
    }
  });

  it('a subagent’s log, with no user message of its own, is one turn per request it answered', async () => {
    const P = 'eeeeeeee-0000-4000-8000-000000000005';
    const K = 'ffffffff-0000-4000-8000-000000000006';
    const sx = await fixtureDb({
      [`${P}/main.jsonl`]: ev(P, 'user_message', { content: 'make a title' }, { spanId: 'R' }),
      [`${P}/title-${K}.jsonl`]:
        ev(K, 'agent_response', { response: response('Fix the retry loop') }, { spanId: 'agent-msg-C1', parentSpanId: 'AT' }),
    });
    try {
      expect(sx.db.prepare('SELECT session_id, turn_index, user_message, assistant_response FROM turns ORDER BY session_id').all()).toEqual([
        { session_id: P, turn_index: 0, user_message: 'make a title', assistant_response: null },
        { session_id: K, turn_index: 0, user_message: null, assistant_response: 'Fix the retry loop' },
      ]);
    } finally {
      sx.cleanup();
    }
  });
});
