// A damaged page in the middle of the index (issue 14 item 3): found by quick_check at open, or by whichever
// connection reads it first (HTTP, the ingest worker, the SQL console); the file is moved aside and the index
// rebuilt from the logs, naming the sessions whose logs are gone.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { Indexer } from '../ingest/indexer';
import { recentProblems } from '../health/health';
import { damageMiddlePage } from '../test-support/damage-page';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { indexOnce } from '../ingest/index-once';
import { SqlRunner } from '../sql/sql-runner';
import { sqlRoutes } from '../routes/sql';
import { checkIndexInBackground } from './check-index';
import { lostSessions, recordedRecovery } from './damaged-index';
import { openReadDb, openWriteDb, openWriteDbOrRecover, rebuildDamagedIndex } from './open';
import { ensureSchema } from './schema';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const pad = 'p'.repeat(300);
const ev = (sid: string, i: number) =>
  line({ ts: 1775000000000 + i, dur: i % 9, sid, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { args: '{}', result: pad + i } });
const ask = (sid: string, text: string) => line({ ts: 1774999999000, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: text } });
const session = (sid: string, n: number, title: string) => ask(sid, title) + Array.from({ length: n }, (_, i) => ev(sid, i + 1)).join('');

/** Three sessions; `gone` is then deleted from disk, so only the archive holds it. The index is closed and damaged. */
async function damagedIndex(): Promise<FixtureDb> {
  const f = await fixtureDb({ 'keep1/main.jsonl': session('keep1', 400, 'keep one'), 'keep2/main.jsonl': session('keep2', 300, 'keep two'), 'gone/main.jsonl': session('gone', 200, 'the lost one') });
  fs.rmSync(path.join(f.logsDir(), 'gone'), { recursive: true });
  await f.reindex();
  f.db.close();
  damageMiddlePage(f.dbPath, 'events');
  return f;
}

const eventCount = (db: FixtureDb['db']) => (db.prepare('SELECT count(*) n FROM events').get() as { n: number }).n;
const asideFiles = (f: FixtureDb) => fs.readdirSync(f.root).filter((n) => /^index\.db\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(n));

describe('a damaged page in the middle of the index', () => {
  it('is not seen by the header check, and makes queries fail (what happened before)', async () => {
    fx = await damagedIndex();
    const { db, recovered } = openWriteDbOrRecover(fx.dbPath);
    expect(recovered).toBeNull();
    expect(() => db.prepare('SELECT count(*), sum(dur) FROM events').get()).toThrow(/malformed/);
    fx.db = db;
  });

  it('quick_check at open finds it: moved aside, rebuilt from the logs, the lost session named, exact counts', async () => {
    fx = await damagedIndex();
    const { db, recovered } = openWriteDbOrRecover(fx.dbPath, { quickCheck: true });
    fx.db = db;
    expect(asideFiles(fx)).toHaveLength(1);
    const aside = path.join(fx.root, asideFiles(fx)[0]);
    expect(recovered).toBe(
      `The index at ${fx.dbPath} was damaged (${recovered?.match(/damaged \((.*)\)\. It was/)?.[1]}). It was moved to ${aside} and rebuilt from the logs. ` +
        '1 session whose logs are gone could not be recovered: gone (the lost one).',
    );
    expect(recovered).toMatch(/damaged \(.*(malformed|corrupt|Tree|page).*\)/i);
    ensureSchema(db);
    await indexOnce(db, [path.join(fx.root, 'Code')]);
    expect(eventCount(db)).toBe(401 + 301);
    expect(recordedRecovery(db)).toMatchObject({ kind: 'corrupt', path: fx.dbPath, reason: recovered });
    expect(recentProblems(db)).toEqual([]); // the logs themselves are fine
  });

  it('the background check (its own thread) finds it in a file that opens fine, and nothing in a sound one', async () => {
    // 1,200 events: enough leaf pages of 16 KiB (server/db/page-size.ts) for one in the middle
    fx = await fixtureDb({ 'keep1/main.jsonl': session('keep1', 1200, 'a') });
    fx.db.close();
    expect(await checkIndexInBackground(fx.dbPath)).toEqual({ damage: null, error: null });
    damageMiddlePage(fx.dbPath, 'events');
    // A page this far gone makes quick_check itself fail with SQLITE_CORRUPT rather than list findings.
    expect(await checkIndexInBackground(fx.dbPath)).toEqual({ damage: 'database disk image is malformed', error: null });
    fx.db = openWriteDb(path.join(fx.root, 'other.db'));
  });

  it('lists what it can read when the damage is in the archive itself', async () => {
    fx = await fixtureDb({ 'keep1/main.jsonl': session('keep1', 50, 'a') });
    fx.db.close();
    fs.writeFileSync(fx.dbPath, Buffer.alloc(8192, 0x41));
    expect(lostSessions(fx.dbPath)).toEqual({ sessions: [], incomplete: true });
    fx.db = openWriteDb(path.join(fx.root, 'other.db'));
  });

  it('an HTTP read that meets it answers 503 with the one error body and reports it (no 500)', async () => {
    fx = await damagedIndex();
    const read = openReadDb(fx.dbPath);
    const reported: string[] = [];
    const ctx = { ...testContext(read, fx.dbPath), reportCorruption: (cause: string) => reported.push(cause) };
    const app = createApp(ctx);
    // a threshold below the slow one: the triage model reads every event (the default slow list reads events_dur alone)
    for (const url of ['/api/events?min=1000', '/api/search?q=read_file', '/api/stats/latency', '/api/sessions/keep1/spans']) {
      const res = await app.request(`http://localhost${url}`, { headers: { host: 'localhost' } });
      expect([url, res.status, await res.json()]).toEqual([url, 503, { error: { code: 'index_damaged', message: 'The index is damaged; it is being moved aside and rebuilt from the logs. Try again in a moment.' } }]);
    }
    expect(reported).toHaveLength(4);
    expect(reported[0]).toMatch(/malformed/);
    read.close();
    fx.db = openWriteDb(path.join(fx.root, 'other.db'));
  });

  it('the SQL console meeting it reports it too', async () => {
    fx = await damagedIndex();
    const read = openReadDb(fx.dbPath);
    const reported: string[] = [];
    const ctx = { ...testContext(read, fx.dbPath), reportCorruption: (cause: string) => reported.push(cause) };
    const runner = new SqlRunner({ dbPath: fx.dbPath });
    const app = createApp(ctx);
    app.route('/x', sqlRoutes(ctx, runner));
    const res = await app.request('http://localhost/x/sql', {
      method: 'POST',
      headers: { host: 'localhost', 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ sql: 'SELECT sum(dur) FROM events' }),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('index_damaged');
    expect(reported).toEqual(['database disk image is malformed']);
    await runner.close();
    read.close();
    fx.db = openWriteDb(path.join(fx.root, 'other.db'));
  });

  it('after a rebuild the SQL console reads the new index, not the file moved aside', async () => {
    fx = await fixtureDb({ 'keep1/main.jsonl': session('keep1', 40, 'a') });
    const runner = new SqlRunner({ dbPath: fx.dbPath });
    const count = async () => (await runner.query('SELECT count(*) n FROM events')).rows;
    expect(await count()).toEqual([[41]]);
    fx.db.close();
    const { db } = rebuildDamagedIndex(fx.dbPath, 'a test');
    fx.db = db;
    expect(await count()).toEqual([[0]]);
    await runner.close();
  });

  it('the ingest worker meeting it stops indexing and reports it', async () => {
    fx = await damagedIndex();
    const db = openWriteDb(fx.dbPath);
    fx.db = db;
    // New lines for the session whose events sit on the damaged page: writing them reads that page.
    fs.appendFileSync(path.join(fx.logsDir(), 'keep1', 'main.jsonl'), ev('keep1', 401));
    const damaged: string[] = [];
    const indexer = new Indexer(db, { roots: [path.join(fx.root, 'Code')], watch: false }, { damaged: (c) => damaged.push(c) });
    await indexer.start().catch((err: unknown) => damaged.push(`start: ${String(err)}`));
    await indexer.whenIdle();
    expect(damaged).toHaveLength(1);
    expect(damaged[0]).toMatch(/malformed/);
  });
});
