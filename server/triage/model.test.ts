import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { recordTriageSteps } from '../test-support/triage-steps';
import { latencyStats } from './latency';
import { noteChangedSessions, pageTriageModelsToDisk, STEP_IDS, subjectOf, TriageModel, triageModel, warmTriageModel } from './model';
import { setPageShiftForTests } from './paged-column';

const S = '11111111-1111-4111-8111-111111111111';
const T0 = Date.now() - 3_600_000;
let seq = 0;
const call = (dur: number, inputTokens: number) =>
  line({ ts: T0 + ++seq, dur, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId: `span-${seq}`, parentSpanId: 'R', status: 'ok', attrs: { model: 'gpt-4.1', inputTokens, outputTokens: 10, ttft: 100 } });

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

describe('triage model columns', () => {
  it('hold every duration and token count exactly, 2^24 + 1 included (a 4.7-hour call; no float32 rounding)', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: call(6000, 1000) + call(2000, 1500) + call(2 ** 24 + 1, 2 ** 24 + 1) });
    const m = triageModel(fx.db);
    expect(Array.from({ length: m.n }, (_, i) => m.cDur.get(i))).toEqual([6000, 2000, 2 ** 24 + 1]);
    const row = latencyStats(fx.db, { by: 'model', window: 'all' }).rows[0];
    expect([row.count, row.tokensIn, row.dur?.p50, row.dur?.max]).toEqual([3, 1000 + 1500 + 2 ** 24 + 1, 6000, 2 ** 24 + 1]);
  });

  it('keep a page or two per column in memory, whatever the number of calls: the rest is in a temporary file', async () => {
    setPageShiftForTests(4); // 16 rows a page
    pageTriageModelsToDisk();
    try {
      const calls = (n: number) => Array.from({ length: n }, (_, i) => call(100 + i, 10)).join('');
      fx = await fixtureDb({ [`${S}/main.jsonl`]: calls(400) });
      const small = triageModel(fx.db);
      const [resident, onDisk] = [small.bytes(), small.bytesOnDisk()];
      fs.appendFileSync(`${fx.logsDir()}/${S}/main.jsonl`, calls(1600));
      await fx.reindex();
      const big = triageModel(fx.db);
      expect(big.n).toBe(2000);
      expect(big.bytes()).toBe(resident);
      expect(big.bytesOnDisk()).toBeGreaterThan(4 * onDisk);
      // nothing beside the database: the file was unlinked when it was created
      expect(fs.readdirSync(path.dirname(fx.dbPath)).filter((f) => f.includes('chronoscope-triage'))).toEqual([]);
    } finally {
      setPageShiftForTests(14);
      pageTriageModelsToDisk(false);
    }
  });
});

describe('triage model load', () => {
  it('reads every row exactly through its JSON chunks: awkward strings, nulls, copies and rows it skips, across chunk ends', async () => {
    const odd = ['say "hi"', 'back\\slash', 'tab\tand\nnewline', '日志落盘', 'emoji 🧪 test', '\u0001control', ''];
    const lines: string[] = [];
    for (let i = 0; i < 2_600; i++) {
      const ts = T0 + i;
      const k = i % 5;
      if (k === 0) lines.push(line({ ts, dur: 10 + i, sid: S, type: 'llm_request', name: 'chat:gpt-4.1', spanId: `l${i}`, parentSpanId: 'R', status: 'ok', attrs: i % 2 ? { model: 'gpt-4.1', inputTokens: i, outputTokens: 3, ttft: 7 } : { model: odd[i % odd.length] } }));
      else if (k === 1) lines.push(line({ ts, dur: 6_000 + i, sid: S, type: 'tool_call', name: odd[i % odd.length] || 'read_file', spanId: `t${i}`, parentSpanId: 'R', status: i % 3 ? 'ok' : 'error', attrs: i % 3 ? {} : { error: `failed: ${odd[i % odd.length]} at line ${i % 7}` } }));
      else if (k === 2) lines.push(line({ ts, dur: 0, sid: S, type: 'user_message', name: 'user_message', spanId: `u${i}`, parentSpanId: 'R', status: 'ok', attrs: { content: `not a triage row ${i}` } }));
      // the same four entries again and again: one row each, the rest repeats (dup 2) that only the raw counts see
      else if (k === 3) lines.push(line({ ts: T0, dur: 6_000, sid: S, type: 'discovery', name: `copied ${i % 4}`, spanId: 'D', parentSpanId: 'R', status: 'ok', attrs: {} }));
      else lines.push(line({ ts, dur: i, sid: S, type: 'hook', name: odd[i % odd.length], spanId: `h${i}`, parentSpanId: 'R', status: 'ok', attrs: {} }));
    }
    fx = await fixtureDb({ [`${S}/main.jsonl`]: lines.join('') });
    const m = triageModel(fx.db);
    // what the driver's own rows say, one by one
    const rows = fx.db
      .prepare(
        `SELECT id, type, name, model, tool, status, ts, dur, ttft, tokens_in, tokens_out, session_num, fail FROM events
         WHERE dup = 0 AND (type IN ('llm_request', 'tool_call', 'subagent', 'hook') OR dur > 0 OR status = 1 OR fail IS NOT NULL)
         ORDER BY id`,
      )
      .all() as { id: number; type: string; name: string | null; model: string | null; tool: string | null; status: number; ts: number; dur: number; ttft: number | null; tokens_in: number | null; tokens_out: number | null; session_num: number; fail: string | null }[];
    expect(rows.length).toBe(1_564); // the calls, tool calls and hooks (3 of every 5 lines) and the 4 entries repeated
    const slow = fx.db.prepare('SELECT sum(dur > 5000) raw, sum(dur > 5000 AND dup = 0) uniq FROM events').get() as { raw: number; uniq: number };
    expect([m.counts.slowRaw, m.counts.slowUnique, slow.raw - slow.uniq]).toEqual([slow.raw, slow.uniq, 516]);
    expect(m.n).toBe(rows.length);
    const got = Array.from({ length: m.n }, (_, i) => ({
      id: m.cId.get(i),
      type: m.types[m.cType.get(i)],
      subject: m.strings[m.cSubject.get(i)],
      status: m.cStatus.get(i),
      ts: m.cTs.get(i),
      dur: m.cDur.get(i),
      session: m.cSession.get(i),
      fail: m.cFail.get(i) === -1 ? null : m.failGroups[m.cFail.get(i)].signature,
    }));
    expect(got).toEqual(rows.map((r) => ({ id: r.id, type: r.type, subject: subjectOf(r.type, r.name, r.model, r.tool), status: r.status, ts: r.ts, dur: r.dur, session: r.session_num, fail: r.fail })));
    const calls = rows.filter((r) => r.type === 'llm_request');
    expect(Array.from({ length: m.ln }, (_, i) => [m.lId.get(i), m.lTtft.get(i), m.lIn.get(i), m.lOut.get(i)])).toEqual(
      calls.map((r) => [r.id, r.ttft ?? NaN, r.tokens_in ?? NaN, r.tokens_out ?? NaN]),
    );
    expect(new Set(got.map((g) => g.subject))).toEqual(new Set([...odd, 'read_file', 'gpt-4.1', 'copied 0', 'copied 1', 'copied 2', 'copied 3']));
  });
});

describe('triage model warm-up', () => {
  it('loads at most STEP_IDS event ids a turn of the event loop (steps of 20,000 held /api/health for up to 240 ms during a backfill)', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: Array.from({ length: 2 * STEP_IDS + 500 }, (_, i) => call(100 + i, 10)).join('') });
    const maxId = (fx.db.prepare('SELECT max(id) m FROM events').get() as { m: number }).m;
    const loadedPerStep = recordTriageSteps();
    let turns = 0;
    let warming = true;
    const countTurns = () => void (warming && (turns++, setImmediate(countTurns)));
    setImmediate(countTurns);
    try {
      await warmTriageModel(fx.db);
    } finally {
      warming = false;
      vi.restoreAllMocks();
    }
    expect(STEP_IDS).toBe(2_000);
    expect(loadedPerStep).toEqual([STEP_IDS, STEP_IDS, maxId - 2 * STEP_IDS]);
    expect(turns).toBeGreaterThanOrEqual(2); // the event loop ran between the steps
    expect(triageModel(fx.db).n).toBe(2 * STEP_IDS + 500);
  });
});

describe('triage model warm-up after the model was current', () => {
  it('still steps through what was committed since (it had kept a settled promise and never stepped again)', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: Array.from({ length: 50 }, (_, i) => call(100 + i, 10)).join('') });
    await warmTriageModel(fx.db); // done in its first step, before any await
    await warmTriageModel(fx.db); // current already
    fs.appendFileSync(`${fx.logsDir()}/${S}/main.jsonl`, Array.from({ length: 2 * STEP_IDS + 300 }, (_, i) => call(100 + i, 10)).join(''));
    await fx.reindex();
    const loadedPerStep = recordTriageSteps();
    try {
      await warmTriageModel(fx.db);
    } finally {
      vi.restoreAllMocks();
    }
    expect(loadedPerStep).toEqual([STEP_IDS, STEP_IDS, 300]);
    expect(triageModel(fx.db).n).toBe(50 + 2 * STEP_IDS + 300);
  });
});

describe('triage model page file', () => {
  it('a failed read answers that request with a clear error; the model is read again with its pages in memory and answers the next one the same', async () => {
    setPageShiftForTests(3); // 8 rows a page
    pageTriageModelsToDisk();
    try {
      fx = await fixtureDb({ [`${S}/main.jsonl`]: Array.from({ length: 50 }, (_, i) => call(100 + 37 * i, 10 + i)).join('') });
      const before = latencyStats(fx.db, { by: 'model', window: 'all' });
      expect(triageModel(fx.db).bytesOnDisk()).toBeGreaterThan(0);
      // the disk fails every read from now on
      vi.spyOn(fs, 'readSync').mockImplementation(() => {
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      });
      // another grouping than the cached answer's, so that a pass reads the pages
      expect(() => latencyStats(fx!.db, { by: 'repository', window: 'all' })).toThrow(/triage model's page file could not be read \(EIO/);
      const again = latencyStats(fx.db, { by: 'model', window: 'all' });
      expect(again).toEqual(before);
      expect(again.rows[0].count).toBe(50);
      expect(triageModel(fx.db).bytesOnDisk()).toBe(0);
      // a pass never answered before runs while the disk still fails every read
      expect(latencyStats(fx.db, { by: 'repository', window: 'all' }).rows.map((r) => [r.key, r.count])).toEqual([['ws1', 50]]);
    } finally {
      vi.restoreAllMocks();
      setPageShiftForTests(14);
      pageTriageModelsToDisk(false);
    }
  });
});

describe('triage model sessions', () => {
  it("follow a session's repository when it is set or changes after the session was created (a CLI session's workspace.yaml arriving after its events; a newer copy under a second root)", async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: call(6000, 1000) });
    let m = triageModel(fx.db);
    const num = m.sessionNum(S)!;
    const before = m.repositoryOf(num);
    const version = m.version;
    fx.db.prepare('UPDATE sessions SET repository = ? WHERE id = ?').run('acme/late-repo', S);
    m = triageModel(fx.db);
    expect([before, m.repositoryOf(num)]).toEqual(['ws1', 'acme/late-repo']);
    expect(m.sessionScope('acme/late-repo', undefined)!(num)).toBe(true);
    expect(m.sessionScope('ws1', undefined)!(num)).toBe(false);
    // answers derived from the model are keyed by its version: it must change with the repository
    expect(m.version).not.toBe(version);
  });

  it('once followed, read after a commit only the sessions the ingest named and the new ones; every session again after a minute of commits', async () => {
    const S2 = '22222222-2222-4222-8222-222222222222';
    const other = line({ ts: T0, dur: 7000, sid: S2, type: 'tool_call', name: 'read_file', spanId: '0000000000000001', status: 'ok', attrs: {} });
    fx = await fixtureDb({ [`${S}/main.jsonl`]: call(6000, 1000), [`${S2}/main.jsonl`]: other });
    const now = Date.now();
    let m = triageModel(fx.db, now);
    const [a, b] = [m.sessionNum(S)!, m.sessionNum(S2)!];
    noteChangedSessions(fx.db, []);
    const setRepo = fx.db.prepare('UPDATE sessions SET repository = ? WHERE id = ?');
    setRepo.run('acme/named', S);
    setRepo.run('acme/unnamed', S2);
    noteChangedSessions(fx.db, [S]);
    m = triageModel(fx.db, now + 1000);
    expect([m.repositoryOf(a), m.repositoryOf(b)]).toEqual(['acme/named', 'ws1']);
    // a session created since is read without being named
    fs.mkdirSync(`${fx.logsDir()}/33333333-3333-4333-8333-333333333333`);
    fs.writeFileSync(`${fx.logsDir()}/33333333-3333-4333-8333-333333333333/main.jsonl`, line({ ts: T0, dur: 9000, sid: '33333333-3333-4333-8333-333333333333', type: 'tool_call', name: 'x', spanId: '0000000000000001', status: 'ok', attrs: {} }));
    await fx.reindex();
    m = triageModel(fx.db, now + 2000);
    expect(m.sessionNum('33333333-3333-4333-8333-333333333333')).toBeTypeOf('number');
    expect(m.repositoryOf(b)).toBe('ws1');
    // a change whose message never came (a worker that died after its commit) is read at the next commit a minute on
    setRepo.run('acme/named', S);
    m = triageModel(fx.db, now + 62_000);
    expect([m.repositoryOf(a), m.repositoryOf(b)]).toEqual(['acme/named', 'acme/unnamed']);
  });
});
