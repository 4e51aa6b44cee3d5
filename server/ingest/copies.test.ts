// Which lines are copies (events.dup): a replay or broadcast is the *whole* entry again (FORMAT §4.4, §4.9),
// never a (spanId, type) match, because span ids are per-window counters that collide across sessions (§10.2).
import { afterEach, describe, expect, it } from 'vitest';
import { spanOverview } from '../spans/list-spans';
import { LatencyStatsQuery } from '../../shared/api/triage';
import { latencyStats } from '../triage/latency';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { planOf, recordStatements } from '../test-support/record-statements';
import { processLine } from './process-line';
import { IngestStore } from './store';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const T = 1_775_000_000_000;
const A = 'aaaaaaaa-1111-4111-8111-000000000001';
const B = 'bbbbbbbb-2222-4222-8222-000000000002';
const C = 'cccccccc-3333-4333-8333-000000000003';
/** The writer's span ids: a counter per window, 16 hex digits, restarting at 1 (FORMAT §10.2). */
const span = (n: number) => n.toString(16).padStart(16, '0');

const start = (sid: string, attrs: Record<string, unknown> = {}) =>
  line({ v: 1, ts: T, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: `session-start-${sid}`, status: 'ok', attrs: { copilotVersion: '0.44.0', vscodeVersion: '1.116.0', ...attrs } });
const user = (sid: string, spanId: string, content: string, ts: number) =>
  line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId, status: 'ok', attrs: { content } });
const llm = (sid: string, spanId: string, parent: string, ts: number) =>
  line({ ts, dur: 900, sid, type: 'llm_request', name: 'chat:gpt-4.1', spanId, parentSpanId: parent, status: 'ok', attrs: { model: 'gpt-4.1', inputTokens: 100, outputTokens: 10 } });
const core = (sid: string, spanId: string, name: string, details: string, ts: number) =>
  line({ ts, dur: 0, sid, type: 'discovery', name, spanId, status: 'ok', attrs: { details, category: 'discovery', source: 'core' } });
const generic = (sid: string, spanId: string, details: string, ts: number) =>
  line({ ts, dur: 0, sid, type: 'generic', name: 'Resolve Model', spanId, status: 'ok', attrs: { details, category: 'model', source: 'core' } });

const q = <R>(sql: string, ...p: unknown[]) => fx!.db.prepare(sql).all(...p) as R[];

/** What `jq -r .type | sort | uniq -c` says over the given file contents. */
function jqCount(...files: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of files) for (const l of f.split('\n').filter((x) => x !== '')) out[JSON.parse(l).type] = (out[JSON.parse(l).type] ?? 0) + 1;
  return out;
}

describe('copies are copies only when the whole entry is the same', () => {
  it('two unrelated sessions whose counters collide: nothing is a replay, every line counts', async () => {
    // Two windows, two sessions: both counters start at 1, so user_message, llm_request and the core events'
    // ids coincide; contents and times differ.
    const a =
      start(A) + core(A, span(1), 'Load Instructions', 'loaded: [AGENTS.md]', T + 1) + generic(A, span(2), 'gpt-4.1', T + 2) +
      user(A, span(3), 'fix the retry loop', T + 10) + llm(A, span(4), span(3), T + 11) +
      user(A, span(5), 'now add a test', T + 20) + llm(A, span(6), span(5), T + 21);
    const b =
      start(B) + core(B, span(1), 'Load Instructions', 'loaded: []', T + 501) + generic(B, span(2), 'claude-sonnet-4', T + 502) +
      user(B, span(3), 'why does the build fail', T + 510) + llm(B, span(4), span(3), T + 511) +
      user(B, span(5), 'fix the retry loop', T + 520) + llm(B, span(6), span(5), T + 521);
    fx = await fixtureDb({ [`${A}/main.jsonl`]: a, [`${B}/main.jsonl`]: b });

    expect(q('SELECT count(*) n FROM events WHERE dup != 0')).toEqual([{ n: 0 }]);
    const jq = jqCount(a, b);
    const counted: Record<string, number> = {};
    for (const r of q<{ counts: string }>('SELECT counts FROM sessions')) for (const [t, n] of Object.entries(JSON.parse(r.counts) as Record<string, number>)) counted[t] = (counted[t] ?? 0) + n;
    expect(counted).toEqual(jq);
    expect(jq).toEqual({ session_start: 2, discovery: 2, generic: 2, user_message: 4, llm_request: 4 });
    // the request strip and triage count every request and every model call
    expect(spanOverview(fx.db, A).requestsTotal).toBe(2);
    expect(spanOverview(fx.db, B).requestsTotal).toBe(2);
    const byModel = latencyStats(fx.db, LatencyStatsQuery.parse({ by: 'model', window: 'all' }));
    expect(byModel.rows.map((r) => [r.key, r.count])).toEqual([['gpt-4.1', 4]]);
    expect(q('SELECT session_id, turn_index, user_message FROM turns ORDER BY session_id, turn_index')).toEqual([
      { session_id: A, turn_index: 0, user_message: 'fix the retry loop' },
      { session_id: A, turn_index: 1, user_message: 'now add a test' },
      { session_id: B, turn_index: 0, user_message: 'why does the build fail' },
      { session_id: B, turn_index: 1, user_message: 'fix the retry loop' },
    ]);
  });

  it('core events replayed into a parent and its child: the copies are flagged', async () => {
    const replayed = (sid: string) => core(sid, span(7), 'Load Skills', 'loaded: [troubleshoot]', T - 5000) + generic(sid, 'core-1774999995001', 'gpt-4.1', T - 4999);
    const parent = start(A) + replayed(A) + user(A, span(8), 'explore the repo', T + 10);
    const child = start(C, { parentSessionId: A, label: 'title' }) + replayed(C);
    // the fork of the parent is written in another window: the same ids, other events
    const fork = start(B, { parentSessionId: A }) + core(B, span(7), 'Load Skills', 'loaded: []', T + 9000) + generic(B, 'core-1774999995001', 'gpt-4.1', T + 9001);
    fx = await fixtureDb({ [`${A}/main.jsonl`]: parent, [`${A}/title-${C}.jsonl`]: child, [`${B}/main.jsonl`]: fork });

    const rows = q<{ sid: string; type: string; dup: number }>(
      `SELECT s.id sid, e.type, e.dup FROM events e JOIN sessions s ON s.num = e.session_num
       WHERE e.type IN ('discovery', 'generic') ORDER BY s.id, e.type`,
    );
    // the fork's lines differ (other window): canonical; of each line the parent and its child share, one is
    // canonical (whichever file was indexed first) and one a copy
    expect(rows.filter((r) => r.sid === B)).toEqual([
      { sid: B, type: 'discovery', dup: 0 },
      { sid: B, type: 'generic', dup: 0 },
    ]);
    const shared = (type: string) => rows.filter((r) => r.sid !== B && r.type === type).map((r) => r.dup).sort();
    expect([shared('discovery'), shared('generic')]).toEqual([
      [0, 1],
      [0, 1],
    ]);
    // shown in each session, counted once across them
    expect(q(`SELECT id, json_extract(counts, '$.discovery') d FROM sessions ORDER BY id`)).toEqual([
      { id: A, d: 1 },
      { id: B, d: 1 },
      { id: C, d: 1 },
    ]);
    // 10 lines (jq), of which the child's two replayed lines are copies
    const lines = Object.values(jqCount(parent, child, fork)).reduce((x, y) => x + y, 0);
    expect([lines, q<{ n: number }>('SELECT count(*) n FROM events WHERE dup = 0')[0].n]).toEqual([10, 8]);
  });

  it('a core event written live into every session of a window is one event, whichever session came first', async () => {
    // FORMAT §4.4: core events go to every promoted parent session of the window, related or not
    const live = (sid: string) => core(sid, 'core-1775000000300', 'Load Agents', 'loaded: [Explore]', T + 300);
    fx = await fixtureDb({ [`${B}/main.jsonl`]: start(B) + live(B), [`${A}/main.jsonl`]: start(A) + live(A) });
    expect(q("SELECT dup, count(*) n FROM events WHERE type = 'discovery' GROUP BY dup")).toEqual([
      { dup: 0, n: 1 },
      { dup: 1, n: 1 },
    ]);
  });

  it('a line repeated whole in one file is a repeat; the same ids with other content are two events', async () => {
    const again = user(A, span(3), 'fix the retry loop', T + 10);
    // after a window reload the session's new run numbers its spans from 1 again (rIdx 1)
    const rerun = line({ ts: T + 90_000, dur: 0, sid: A, type: 'user_message', name: 'user_message', spanId: span(3), status: 'ok', attrs: { content: 'and the docs' }, rIdx: 1 });
    const file = start(A) + again + llm(A, span(4), span(3), T + 11) + again + rerun;
    fx = await fixtureDb({ [`${A}/main.jsonl`]: file });
    expect(q("SELECT dup FROM events WHERE type = 'user_message' ORDER BY id")).toEqual([{ dup: 0 }, { dup: 2 }, { dup: 0 }]);
    expect(q("SELECT event_count, json_extract(counts, '$.user_message') u FROM sessions")).toEqual([{ event_count: 4, u: 2 }]);
    expect(q('SELECT turn_index, user_message FROM turns ORDER BY turn_index')).toEqual([
      { turn_index: 0, user_message: 'fix the retry loop' },
      { turn_index: 1, user_message: 'and the docs' },
    ]);
  });

  it('a user_message broadcast into two sessions (the same whole entry) is one canonical line', async () => {
    const broadcast = (sid: string) => user(sid, span(2), 'broadcast prompt', T + 50);
    fx = await fixtureDb({ [`${A}/main.jsonl`]: start(A) + broadcast(A), [`${B}/main.jsonl`]: start(B) + broadcast(B) + user(B, span(2), 'broadcast prompt!', T + 50) });
    expect(q("SELECT json_extract(counts, '$.user_message') u FROM sessions ORDER BY id")).toEqual([{ u: 1 }, { u: 2 }]);
    expect(q("SELECT dup, count(*) n FROM events WHERE type = 'user_message' GROUP BY dup")).toEqual([
      { dup: 0, n: 2 },
      { dup: 1, n: 1 },
    ]);
  });

  it('the copy lookup of every copied entry seeks copy_keys by its primary key (ingest stays linear)', async () => {
    fx = await fixtureDb({ [`${A}/main.jsonl`]: start(A) + user(A, span(1), 'first', T + 1) });
    let store!: IngestStore;
    const recorded = recordStatements(fx.db, () => (store = new IngestStore(fx!.db)), ['get', 'run']);
    const file = store.createFile({ path: '/nowhere/main.jsonl', workspace_dir: null, folder_session_id: B, session_id: B, kind: 'main', label: null });
    const lines = [user(B, span(1), 'first', T + 1), core(B, span(2), 'Load Skills', 'loaded: []', T + 2)].map((l, i) =>
      processLine({ bytes: Buffer.from(l.slice(0, -1)), byteOffset: i * 100, tooLong: false }),
    );
    store.writeBatch(file, lines, { dev: 1, ino: 1, size: 200, offset: 200, headHash: 'h', generation: 0, nextLine: 3, reconciling: false, mtime: 0 }, [1, 2]);
    const lookups = recorded.filter((r) => r.sql.includes('copy_keys'));
    // the user_message is A's line again (a copy: no new key); the discovery line is new
    expect(lookups.map((r) => r.sql)).toEqual([
      'SELECT file_id FROM copy_keys WHERE key = ?',
      'SELECT file_id FROM copy_keys WHERE key = ?',
      'INSERT INTO copy_keys (key, file_id) VALUES (?, ?)',
    ]);
    expect(planOf(fx.db, lookups[0])).toEqual(['SEARCH copy_keys USING INTEGER PRIMARY KEY (rowid=?)']);
    expect(q("SELECT dup FROM events WHERE type = 'user_message' ORDER BY id")).toEqual([{ dup: 0 }, { dup: 1 }]);
  });
});
