import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { latencyStats } from './latency';
import { holdFloat, holdIndex, noteChangedSessions, triageModel } from './model';

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
  it('are 4 bytes a duration and token count while the values fit, and widen to hold a value that does not exactly', async () => {
    fx = await fixtureDb({ [`${S}/main.jsonl`]: call(6000, 1000) + call(2000, 1500) });
    let m = triageModel(fx.db);
    expect([m.cDur.constructor.name, m.lIn.constructor.name, m.cType.constructor.name, m.cSubject.constructor.name, m.cSession.constructor.name, m.cFail.constructor.name]).toEqual([
      'Float32Array',
      'Float32Array',
      'Uint8Array',
      'Uint16Array',
      'Uint16Array',
      'Int16Array',
    ]);

    // 2^24 + 1 (ms: a 4.7-hour call; tokens) has no float32: rounding it would change a percentile or a sum
    fs.appendFileSync(`${fx.logsDir()}/${S}/main.jsonl`, call(2 ** 24 + 1, 2 ** 24 + 1));
    await fx.reindex();
    m = triageModel(fx.db);
    expect([m.cDur.constructor.name, m.lIn.constructor.name, m.lOut.constructor.name]).toEqual(['Float64Array', 'Float64Array', 'Float32Array']);
    expect([...m.cDur.subarray(0, m.n)]).toEqual([6000, 2000, 2 ** 24 + 1]);
    const row = latencyStats(fx.db, { by: 'model', window: 'all' }).rows[0];
    expect([row.count, row.tokensIn, row.dur?.p50, row.dur?.max]).toEqual([3, 1000 + 1500 + 2 ** 24 + 1, 6000, 2 ** 24 + 1]);
  });

  it('widen an index column to 4 bytes past its range, keeping the values', () => {
    const widened = (a: Parameters<typeof holdIndex>[0], v: number) => {
      const b = holdIndex(a, v);
      return [b.constructor.name, [...b]];
    };
    expect(widened(Uint8Array.of(1, 255), 255)).toEqual(['Uint8Array', [1, 255]]);
    expect(widened(Uint8Array.of(1, 255), 256)).toEqual(['Int32Array', [1, 255]]);
    expect(widened(Uint16Array.of(7, 65535), 65536)).toEqual(['Int32Array', [7, 65535]]);
    expect(widened(Int16Array.of(-1, 32767), -1)).toEqual(['Int16Array', [-1, 32767]]);
    expect(widened(Int16Array.of(-1, 32767), 32768)).toEqual(['Int32Array', [-1, 32767]]);
    expect(holdFloat(Float32Array.of(1.5), NaN).constructor.name).toBe('Float32Array');
    expect(holdFloat(Float32Array.of(1.5), 0.1).constructor.name).toBe('Float64Array');
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
