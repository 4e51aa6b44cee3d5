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
