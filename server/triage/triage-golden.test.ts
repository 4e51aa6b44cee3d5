// The triage API's answers, pinned as a JSON file written by the model as it was before its columns were paged to
// disk (issue 19.3): however the model holds its rows, every figure, page and order must stay byte-identical.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app';
import { cliTree } from '../ingest/cli/cli-fixture';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { openReadDb, openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { Indexer } from '../ingest/indexer';
import { INT, NUM, type CommitRows } from './commit-rows';
import { handCommitRowsBackWith, offerCommitRows, pageTriageModelsToDisk, TriageModel, triageModel } from './model';
import { setPageShiftForTests } from './paged-column';

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';
const T = Date.parse('2026-11-30T08:00:00.000Z');
// Span ids are counters restarting at 0000000000000001 in every session (FORMAT §10.2): A and B collide.
const id = (n: number) => n.toString(16).padStart(16, '0');
function session(sid: string, shift: number): string {
  let out = 'garbage, not json\n';
  let n = 0;
  const ev = (at: number, type: string, name: string, dur: number, status: string, attrs: object) =>
    line({ ts: T + shift + at, dur, sid, type, name, spanId: id(++n), parentSpanId: 'R', status, attrs });
  for (let r = 0; r < 6; r++) {
    const at = r * 60_000;
    out += ev(at, 'user_message', 'user_message', 0, 'ok', { content: `request ${r}` });
    out += ev(at + 10, 'llm_request', 'chat:gpt-4.1', 900 + r * 1700, r === 3 ? 'error' : 'ok', { model: r % 2 ? 'gpt-4.1' : 'claude-sonnet-4', inputTokens: 1000 + r, outputTokens: 20 * r, ttft: 100 + r * 50, ...(r === 3 ? { error: 'Server error: 429 Too Many Requests' } : {}) });
    out += ev(at + 20, 'tool_call', r % 3 ? 'read_file' : 'run_in_terminal', 40 + r * 2500, r === 4 ? 'error' : 'ok', { args: '{}', ...(r === 4 ? { error: `File not found: /src/${r}.ts` } : { result: 'ok' }) });
    out += ev(at + 30, 'subagent', 'Explore', 7000 + r, 'ok', { agentName: 'Explore' });
    out += ev(at + 40, 'hook', 'PreToolUse', 3 + r, r === 5 ? 'error' : 'ok', { resultKind: r === 5 ? 'error' : 'success' });
    out += ev(at + 50, 'generic', 'compact', 6000 + r, 'ok', {});
  }
  return out;
}

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({ [`${A}/main.jsonl`]: session(A, 0), [`ws2:${B}/main.jsonl`]: session(B, 30_000) }, { cli: cliTree(), mtimeMs: T + 3_600_000 });
});
afterAll(() => fx.cleanup());

const URLS = [
  '/api/triage/counts',
  '/api/triage/counts?source=cli',
  '/api/triage/counts?repo=ws2',
  '/api/events',
  '/api/events?min=-1&sort=ts&order=asc&limit=7',
  '/api/events?min=-1&type=llm_request&sort=ttft',
  '/api/events?min=-1&model=gpt-4.1',
  '/api/events?min=-1&tool=read_file&sort=ts',
  '/api/events?min=-1&status=error',
  '/api/events?min=-1&failed=1&source=vscode',
  '/api/events?min=-1&type=hook&name=PreToolUse',
  '/api/events?min=100&max=8000&repo=ws2',
  '/api/events?min=-1&type=tool_call&source=cli',
  `/api/events?min=-1&session=${A}&sort=ts`,
  `/api/events?min=-1&from=${T + 60_000}&to=${T + 200_000}&sort=ts`,
  '/api/events?min=-1&sig=' + encodeURIComponent('Server error: <n> Too Many Requests'),
  '/api/errors/groups',
  '/api/errors/groups?sort=last&buckets=8',
  '/api/errors/groups?sort=sessions&kind=tool',
  '/api/errors/groups?source=cli',
  '/api/errors/groups?repo=ws2&q=file',
  '/api/stats/latency',
  '/api/stats/latency?by=tool',
  '/api/stats/latency?by=subagent',
  '/api/stats/latency?by=hook',
  '/api/stats/latency?by=repository&type=tool_call',
  '/api/stats/latency?source=cli',
  '/api/stats/histogram',
  '/api/stats/histogram?by=tool&key=read_file',
  '/api/stats/histogram?by=repository&key=ws2',
  '/api/stats/timeseries?interval=hour',
  '/api/stats/timeseries?by=tool&source=vscode',
  '/api/stats/ttft-scatter',
  '/api/stats/ttft-scatter?by=repository&limit=10',
];

async function answers(db = fx.db): Promise<string> {
  const app = createApp(testContext(db, fx.dbPath));
  const out: Record<string, unknown> = {};
  for (const url of URLS) {
    const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
    out[url] = { status: res.status, body: await res.json() };
  }
  return JSON.stringify(out, null, 1);
}

describe('triage API answers (golden)', () => {
  it('are byte-identical for two sources, colliding span ids, errors, failures and slow calls', async () => {
    await expect(await answers()).toMatchFileSnapshot('__snapshots__/triage-golden.json');
  });

  it.each([true, false])('are the same in pages of 4 rows, written to the file (%s) or kept in memory (a fresh connection, a fresh model)', async (toDisk) => {
    setPageShiftForTests(2);
    pageTriageModelsToDisk(toDisk);
    const db = openReadDb(fx.dbPath);
    try {
      const json = await answers(db);
      expect(triageModel(db).bytesOnDisk() > 0).toBe(toDisk);
      await expect(json).toMatchFileSnapshot('__snapshots__/triage-golden.json');
    } finally {
      setPageShiftForTests(14);
      pageTriageModelsToDisk(false);
      db.close();
    }
  });
});

describe('triage API answers from the rows the ingest handed over (commit-rows.ts)', () => {
  /** The fixture's logs indexed again into a database of their own, with each commit's rows kept as the server gets them. */
  async function indexedWithCommitRows(): Promise<{ dbPath: string; batches: CommitRows[]; dir: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-rows-'));
    const dbPath = path.join(dir, 'index.db');
    const db = openWriteDb(dbPath);
    ensureSchema(db);
    const batches: CommitRows[] = [];
    const indexer = new Indexer(db, { roots: [path.join(fx.root, 'Code'), path.join(fx.root, '.copilot')], watch: false, waitForSpace: false }, { triageRows: (r) => batches.push(r) });
    await indexer.start();
    await indexer.whenIdle();
    await indexer.stop();
    db.close();
    return { dbPath, batches, dir };
  }

  /** A batch cut in two after its k-th row, as two commits would have handed it over (the fixture is one commit). */
  function cut(b: CommitRows, k: number): [CommitRows, CommitRows] {
    expect(b.num.length).toBe(1);
    const at = b.num[0][(k - 1) * NUM];
    return [
      { ...b, through: at, n: k, num: [b.num[0].slice(0, k * NUM)], int: [b.int[0].slice(0, k * INT)] },
      { ...b, after: at, n: b.n - k, num: [b.num[0].slice(k * NUM, b.n * NUM)], int: [b.int[0].slice(k * INT, b.n * INT)] },
    ];
  }

  it.each([
    ['every commit', (b: CommitRows[]) => b, []],
    ['two commits', (b: CommitRows[]) => cut(b[0], 30), []],
    ["the second of two (the first's ids read from SQL)", (b: CommitRows[]) => [cut(b[0], 30)[1]], ['first']],
    ["the first of two (the second's ids read from SQL)", (b: CommitRows[]) => [cut(b[0], 30)[0]], ['second']],
    ['a commit to tables since recreated (another schema cookie: read from SQL)', (b: CommitRows[]) => [{ ...b[0], schema: b[0].schema + 1 }], ['all']],
  ])('are byte-identical, the model fed %s', async (_, offered, sqlReads) => {
    const { dbPath, batches, dir } = await indexedWithCommitRows();
    const db = openReadDb(dbPath);
    const fromSql = vi.spyOn(TriageModel.prototype as unknown as { loadFromSql: (from: number, to: number) => void }, 'loadFromSql');
    try {
      // the fixture's logs are one commit; every row the model's own SQL would read is in it
      expect(batches.map((b) => [b.after, b.n])).toEqual([[0, db.prepare("SELECT count(*) FROM events WHERE type IN ('llm_request', 'tool_call', 'subagent', 'hook') OR dur > 0 OR status = 1 OR fail IS NOT NULL OR dup > 0").pluck().get()]]);
      const [first, second] = cut(batches[0], 30);
      const handedBack: CommitRows[] = [];
      handCommitRowsBackWith((b) => handedBack.push(b));
      const offer = offered(batches);
      for (const b of offer) offerCommitRows(db, b);
      const json = await answers(db);
      // every batch, once added (or of other tables), goes back for its chunks to be reused
      expect(handedBack).toEqual(offer);
      handCommitRowsBackWith(null);
      await expect(json).toMatchFileSnapshot('__snapshots__/triage-golden.json');
      const ranges = { first: [0, first.through], second: [second.after, second.through], all: [0, second.through] };
      expect(fromSql.mock.calls).toEqual(sqlReads.map((r) => ranges[r as keyof typeof ranges]));
    } finally {
      fromSql.mockRestore();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

