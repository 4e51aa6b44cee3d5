// Fault injection (issue 8 item 1): every fault the writer and the disk can produce. Each case asserts exact
// event counts before and after: no crash, no duplicate, no lost event that is still on disk, and the problem
// visible where /api/health reads it (recentProblems).
import Database from 'better-sqlite3';
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openReadDb, openWriteDb, openWriteDbOrRecover, removeDatabaseFiles } from '../db/open';
import { ensureSchema } from '../db/schema';
import { recentProblems } from '../health/health';
import { damageMiddlePage } from '../test-support/damage-page';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { indexOnce } from './index-once';
import { IngestStore } from './store';
import { denyAccess } from '../test-support/deny-access';

let fx: FixtureDb | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  fx?.cleanup();
  fx = null;
});

const ev = (sid: string, i: number, extra: Record<string, unknown> = {}) =>
  line({ ts: 1775000000000 + i, dur: i % 7, sid, type: 'tool_call', name: 'read_file', spanId: `${sid}-span-${i}`, parentSpanId: 'root', status: 'ok', attrs: { args: `{"filePath":"/w/f${i}.ts"}`, result: `result ${i}` }, ...extra });
const lines = (sid: string, from: number, to: number) => Array.from({ length: to - from }, (_, k) => ev(sid, from + k)).join('');

function counts(db: FixtureDb['db']) {
  return db
    .prepare(
      `SELECT (SELECT count(*) FROM events) events, (SELECT coalesce(sum(events), 0) FROM files) fileEvents,
              (SELECT coalesce(sum(bad_lines), 0) FROM files) bad, (SELECT coalesce(sum(fragments), 0) FROM files) fragments,
              (SELECT count(*) FROM (SELECT span_id FROM events GROUP BY file_id, span_id, type HAVING count(*) > 1)) dups`,
    )
    .get() as { events: number; fileEvents: number; bad: number; fragments: number; dups: number };
}

const main = (f: FixtureDb, sid = 's1') => path.join(f.logsDir(), sid, 'main.jsonl');

describe('partial lines', () => {
  it.each([1, 2, 1000])('a final line completed later in %i piece(s) becomes exactly one event', async (pieces) => {
    const last = ev('s1', 99);
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 3) + last.slice(0, 10) });
    expect(counts(fx.db)).toMatchObject({ events: 3, bad: 0 });
    const rest = last.slice(10);
    const size = Math.ceil(rest.length / pieces);
    for (let i = 0; i < rest.length; i += size) {
      fs.appendFileSync(main(fx), rest.slice(i, i + size));
      await fx.reindex();
    }
    expect(counts(fx.db)).toEqual({ events: 4, fileEvents: 4, bad: 0, fragments: 0, dups: 0 });
  });

  it('appends between two passes are read once each', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 5) });
    fs.appendFileSync(main(fx), lines('s1', 5, 9));
    await fx.reindex();
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 9, dups: 0 });
  });
});

/** Copilot's size cap (FORMAT §4.2): keep the newest `keep` bytes, move the cut past the first newline within 4 KB, .tmp + rename. */
function sizeCapRewrite(file: string, keep: number): void {
  const buf = fs.readFileSync(file);
  let cut = buf.length - keep;
  const nl = buf.subarray(cut, cut + 4096).indexOf(0x0a);
  if (nl !== -1) cut += nl + 1;
  fs.writeFileSync(file + '.tmp', buf.subarray(cut));
  fs.renameSync(file + '.tmp', file);
}

describe('rewrites', () => {
  it('a size-cap rewrite to the newest 60% plus new lines: no duplicate, nothing lost, dropped lines stay', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 100) });
    const f = main(fx);
    sizeCapRewrite(f, Math.floor(fs.statSync(f).size * 0.6));
    fs.appendFileSync(f, lines('s1', 100, 110));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 110, fileEvents: 110, bad: 0, fragments: 0, dups: 0 });
  });

  it('a cut inside a line over 4 KB leaves a fragment first line: skipped and counted as a fragment', async () => {
    const big = (i: number) => ev('s1', i, { attrs: { inputMessages: 'm'.repeat(9000) } });
    fx = await fixtureDb({ 's1/main.jsonl': Array.from({ length: 10 }, (_, i) => big(i)).join('') });
    const f = main(fx);
    const size = fs.statSync(f).size;
    const lineLen = size / 10;
    sizeCapRewrite(f, size - (4 * lineLen + 100)); // the cut lands 100 bytes into line 5: no newline within 4 KB
    fs.appendFileSync(f, big(10));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 11, fileEvents: 11, bad: 0, fragments: 1, dups: 0 });
    const p = recentProblems(fx.db).find((x) => x.kind === 'fragment');
    expect(p?.lineNo).toBe(1);
    expect(p?.reason).toMatch(/^first line cut by a rewrite/);
  });

  it('a cut inside a UTF-8 sequence: the broken first line is a fragment, the rest reconciles', async () => {
    const cjk = (i: number) => line({ ts: i, dur: 0, sid: 's1', type: 'user_message', name: 'user_message', spanId: `u${i}`, status: 'ok', attrs: { content: '日志怎么落盘'.repeat(800) } });
    fx = await fixtureDb({ 's1/main.jsonl': Array.from({ length: 6 }, (_, i) => cjk(i)).join('') });
    const f = main(fx);
    const buf = fs.readFileSync(f);
    const cut = buf.indexOf(Buffer.from('日', 'utf8'), buf.length - 20000) + 1; // one byte into a 3-byte character
    fs.writeFileSync(f + '.tmp', buf.subarray(cut));
    fs.renameSync(f + '.tmp', f);
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 6, fileEvents: 6, bad: 0, fragments: 1, dups: 0 });
  });

  it('a file truncated to zero then regrown keeps the old events and adds the new ones once', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 5) });
    const f = main(fx);
    fs.truncateSync(f, 0);
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 5 });
    fs.appendFileSync(f, lines('s1', 5, 8));
    await fx.reindex();
    fs.appendFileSync(f, lines('s1', 8, 9));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 9, fileEvents: 9, bad: 0, fragments: 0, dups: 0 });
  });

  it('a session folder recreated with the same name: old events kept, identical lines not doubled', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 5) });
    const dir = path.dirname(main(fx));
    fs.rmSync(dir, { recursive: true });
    await fx.reindex();
    fs.mkdirSync(dir);
    fs.writeFileSync(main(fx), lines('s1', 3, 7)); // a new inode; lines 3 and 4 are the same lines again
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 7, fileEvents: 7, bad: 0, fragments: 0, dups: 0 });
    expect((fx.db.prepare("SELECT log_deleted FROM sessions WHERE id = 's1'").get() as { log_deleted: number }).log_deleted).toBe(0);
  });
});

describe('rewrites that are not an atomic rename', () => {
  /** Writes `content` into `file` in `pieces` appends, cutting mid-line, indexing after each one. */
  async function writeInPieces(f: FixtureDb, file: string, content: string, pieces: number): Promise<void> {
    const size = Math.ceil(content.length / pieces);
    for (let i = 0; i < content.length; i += size) {
      fs.appendFileSync(file, content.slice(i, i + size));
      await f.reindex();
    }
  }

  it('a file truncated in place and written back in 7 pieces keeps its event count; new lines after it are added', async () => {
    const content = lines('s1', 0, 100);
    fx = await fixtureDb({ 's1/main.jsonl': content });
    const f = main(fx);
    fs.truncateSync(f, 0);
    await fx.reindex();
    await writeInPieces(fx, f, content, 7);
    expect(counts(fx.db)).toEqual({ events: 100, fileEvents: 100, bad: 0, fragments: 0, dups: 0 });
    fs.appendFileSync(f, lines('s1', 100, 103));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 103, fileEvents: 103, bad: 0, fragments: 0, dups: 0 });
  });

  it('the first piece already there when the truncation is noticed: the later pieces are reconciled too', async () => {
    const content = lines('s1', 0, 60);
    fx = await fixtureDb({ 's1/main.jsonl': content });
    const f = main(fx);
    fs.writeFileSync(f, content.slice(0, 1000)); // truncate + first piece before the indexer looks
    await fx.reindex();
    fs.appendFileSync(f, content.slice(1000, 5000));
    await fx.reindex();
    fs.appendFileSync(f, content.slice(5000) + lines('s1', 60, 62));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 62, fileEvents: 62, bad: 0, fragments: 0, dups: 0 });
  });

  it('a session folder removed and copied back file by file, in pieces: not one event added; new lines afterwards are', async () => {
    const mainContent = lines('s1', 0, 80);
    const child = lines('c1', 0, 30);
    fx = await fixtureDb({ 's1/main.jsonl': mainContent, 's1/title-c1.jsonl': child, 's2/main.jsonl': lines('s2', 0, 5) });
    const dir = path.dirname(main(fx));
    fs.rmSync(dir, { recursive: true });
    await fx.reindex();
    expect((fx.db.prepare("SELECT log_deleted FROM sessions WHERE id = 's1'").get() as { log_deleted: number }).log_deleted).toBe(1);
    fs.mkdirSync(dir);
    await writeInPieces(fx, path.join(dir, 'main.jsonl'), mainContent, 4);
    await writeInPieces(fx, path.join(dir, 'title-c1.jsonl'), child, 3);
    expect(counts(fx.db)).toEqual({ events: 115, fileEvents: 115, bad: 0, fragments: 0, dups: 0 });
    expect((fx.db.prepare("SELECT log_deleted FROM sessions WHERE id = 's1'").get() as { log_deleted: number }).log_deleted).toBe(0);
    fs.appendFileSync(path.join(dir, 'main.jsonl'), lines('s1', 80, 84));
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 119, fileEvents: 119, bad: 0, fragments: 0, dups: 0 });
  });

  it('a line identical to one of the archive, appended after the copy is complete, is added (the copy ended the reconciliation)', async () => {
    const content = lines('s1', 0, 10);
    fx = await fixtureDb({ 's1/main.jsonl': content });
    const f = main(fx);
    fs.truncateSync(f, 0);
    await fx.reindex();
    await writeInPieces(fx, f, content, 3);
    fs.appendFileSync(f, ev('s1', 9)); // the writer repeats its last line: a second, real occurrence
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 11, fileEvents: 11 });
  });

  it('a size-capped file later truncated and written back: reconciled against every generation archived', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 100) });
    const f = main(fx);
    sizeCapRewrite(f, Math.floor(fs.statSync(f).size * 0.6));
    fs.appendFileSync(f, lines('s1', 100, 110));
    await fx.reindex();
    const now = fs.readFileSync(f, 'utf8');
    fs.truncateSync(f, 0);
    await fx.reindex();
    await writeInPieces(fx, f, now, 5);
    expect(counts(fx.db)).toEqual({ events: 110, fileEvents: 110, bad: 0, fragments: 0, dups: 0 });
  });
});

describe('deletions', () => {
  it('a deleted session folder keeps its rows and its session shows "log deleted"', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 4), 's2/main.jsonl': lines('s2', 0, 3) });
    fs.rmSync(path.dirname(main(fx, 's1')), { recursive: true });
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 7 });
    const rows = fx.db.prepare('SELECT id, log_deleted, event_count FROM sessions ORDER BY id').all();
    expect(rows).toEqual([
      { id: 's1', log_deleted: 1, event_count: 4 },
      { id: 's2', log_deleted: 0, event_count: 3 },
    ]);
  });

  it('retention deleting 10 sessions at once loses no event', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`r${i}/main.jsonl`] = lines(`r${i}`, 0, 3);
    fx = await fixtureDb(files);
    for (let i = 0; i < 10; i++) fs.rmSync(path.join(fx.logsDir(), `r${i}`), { recursive: true });
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 36, dups: 0 });
    expect((fx.db.prepare('SELECT count(*) n FROM sessions WHERE log_deleted = 1').get() as { n: number }).n).toBe(10);
  });

  it('a file replaced by a folder of the same name: no crash, its events kept', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 4) });
    fs.rmSync(main(fx));
    fs.mkdirSync(main(fx));
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 4 });
  });
});

describe('garbage', () => {
  it('binary garbage, NUL bytes, invalid UTF-8, arrays, scalars and deep nesting: exact bad-line counts', async () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const content = Buffer.concat([
      Buffer.from(lines('s1', 0, 2)),
      Buffer.from([0xff, 0xfe, 0x01, 0x9c, 0x0a]), // binary
      Buffer.from('{"a":\u0000}\n'),
      Buffer.concat([Buffer.from('{"ts":5,"sid":"s1","type":"user_message","spanId":"bad-utf8","attrs":{"content":"caf'), Buffer.from([0xc3]), Buffer.from('"}}\n')]), // invalid UTF-8 inside a valid object: kept, replaced
      Buffer.from('[1,2,3]\n42\n"str"\nnull\n'),
      Buffer.from(deep + '\n'),
      Buffer.from(lines('s1', 2, 3)),
    ]);
    fx = await fixtureDb({});
    fs.mkdirSync(path.dirname(main(fx)), { recursive: true });
    fs.writeFileSync(main(fx), content);
    await fx.reindex();
    // events: 3 good tool calls + the invalid-UTF-8 user message; bad: binary, NUL, 4 non-objects, the deeply nested
    // object (it has no type: not an entry, whatever its depth)
    expect(counts(fx.db)).toEqual({ events: 4, fileEvents: 4, bad: 7, fragments: 0, dups: 0 });
    const reasons = recentProblems(fx.db).map((p) => `${p.lineNo}: ${p.reason}`).sort();
    expect(reasons).toEqual([
      '10: a JSON object with no "type"',
      '3: not JSON (invalid UTF-8)',
      '4: contains NUL bytes (binary garbage)',
      '6: a JSON array, not an object',
      '7: a JSON number, not an object',
      '8: a JSON string, not an object',
      '9: a JSON null, not an object',
    ]);
  });

  it('a single 20 MB line is one event, indexed with bounded text', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 0, { attrs: { args: '{}', result: 'z'.repeat(20 * 1024 * 1024) } }) + ev('s1', 1) });
    expect(counts(fx.db)).toMatchObject({ events: 2, bad: 0 });
  });

  it('10,000 small child files in one folder are 10,000 sessions', async () => {
    fx = await fixtureDb({ 'big/main.jsonl': lines('big', 0, 1) });
    const dir = path.dirname(main(fx, 'big'));
    for (let i = 0; i < 10_000; i++) fs.writeFileSync(path.join(dir, `title-c${i}.jsonl`), ev(`c${i}`, 0));
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 10_001, dups: 0 });
    expect((fx.db.prepare("SELECT count(*) n FROM sessions WHERE parent_id = 'big'").get() as { n: number }).n).toBe(10_000);
  }, 120_000);
});

describe('the filesystem says no', () => {
  it('permission denied on a file: reported with its path, indexed once readable', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 2), 's2/main.jsonl': lines('s2', 0, 3) });
    const denied = main(fx, 's2');
    fs.appendFileSync(denied, lines('s2', 3, 5));
    const spy = denyAccess('openSync', denied, `EACCES: permission denied, open '${denied}'`);
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 5 });
    expect(recentProblems(fx.db).find((p) => p.kind === 'unreadable')).toMatchObject({ path: denied, reason: `EACCES: permission denied, open '${denied}'` });
    spy.mockRestore();
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 7, dups: 0 });
    expect(recentProblems(fx.db).filter((p) => p.kind === 'unreadable')).toEqual([]);
  });

  it('permission denied on a folder: the other sessions are indexed', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 2) });
    const locked = path.join(fx.logsDir(), 'locked');
    fs.mkdirSync(locked);
    fs.writeFileSync(path.join(locked, 'main.jsonl'), lines('locked', 0, 3));
    denyAccess('readdirSync', locked);
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 2 });
  });

  it('a symlink loop inside debug-logs does not hang or crash', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 2) });
    fs.symlinkSync('..', path.join(fx.logsDir(), 's1', 'loop'));
    fs.symlinkSync(fx.logsDir(), path.join(fx.logsDir(), 'self'));
    await fx.reindex();
    expect(counts(fx.db)).toMatchObject({ events: 2, dups: 0 });
  });

  it('the disk full during a one-shot index: the group rolls back, the error reaches the caller, and a rerun writes it once', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 2) });
    fs.appendFileSync(main(fx), lines('s1', 2, 6));
    const real = IngestStore.prototype.writeBatch;
    const spy = vi.spyOn(IngestStore.prototype, 'writeBatch').mockImplementation(function (this: IngestStore, ...args) {
      const db = this.db;
      // Write part of the batch inside a transaction, then fail as SQLite does when the disk is full.
      db.transaction(() => {
        real.apply(this, args);
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      })();
      return { events: 0, sessionIds: new Set<string>() };
    });
    // `chronoscope index` reports it and exits (cli-exit-codes.test.ts); the server's worker waits (disk-full.test.ts).
    await expect(fx.reindex()).rejects.toMatchObject({ code: 'SQLITE_FULL' });
    expect(counts(fx.db)).toMatchObject({ events: 2 });
    expect(recentProblems(fx.db)).toEqual([]);
    spy.mockRestore();
    await fx.reindex();
    expect(counts(fx.db)).toEqual({ events: 6, fileEvents: 6, bad: 0, fragments: 0, dups: 0 });
  });
});

describe('prompt strings and a rolled-back batch', () => {
  it('a batch rolled back after its prompt reached the search writer: written again, its strings are indexed (the writer forgets them)', async () => {
    const { processLine } = await import('./process-line');
    const { InlineSearchFeed } = await import('../search-index/search-feed');
    fx = await fixtureDb({});
    const feed = new InlineSearchFeed(fx.dbPath);
    const store = new IngestStore(fx.db, feed);
    const file = store.createFile({ path: '/logs/s1/main.jsonl', workspace_dir: null, folder_session_id: 's1', session_id: 's1', kind: 'main', label: null });
    const text = line({ ts: 1775000000000, dur: 5, sid: 's1', type: 'llm_request', name: 'chat:gpt-4.1', spanId: '0000000000000002', status: 'ok', attrs: { model: 'gpt-4.1', inputMessages: JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'the kestrelmoor question' }] }]) } });
    const processed = [processLine({ bytes: Buffer.from(text.trimEnd()), byteOffset: 0, tooLong: false })];
    const progress = (offset: number) => ({ dev: 1, ino: 1, size: offset, mtime: 1775000000000, offset, headHash: 'h', generation: 0, nextLine: 2, reconciling: false });
    expect(() =>
      fx!.db.transaction(() => {
        store.writeBatch(file, processed, progress(text.length), [1]);
        void feed.room(); // the rows reach the writer, which remembers the prompt's strings as indexed
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      })(),
    ).toThrow('database or disk is full');
    // what the indexer does after rolling a group back
    feed.rolledBack();
    store.resetCaches();
    store.writeBatch(file, processed, progress(text.length), [1]);
    feed.committed(1);
    await feed.close();
    const read = openReadDb(fx.dbPath);
    // every string of the prompt, the role and part type included (valueStrings), once, sent first by event 1
    expect([
      counts(fx.db).events,
      read.prepare('SELECT id, event_id FROM search.prompt_docs ORDER BY id').all(),
      read.prepare(`SELECT rowid FROM prompt_text WHERE prompt_text MATCH 'kestrelmoor'`).all(),
    ]).toEqual([1, [1, 2, 3].map((id) => ({ id, event_id: 1 })), [{ rowid: 3 }]]);
    read.close();
  });
});

describe('crashes and a lost database', () => {
  const cli = path.resolve('server/main.ts');

  function bigCorpus(root: string, sessions: number, linesEach: number): number {
    const logs = path.join(root, 'Code', 'User', 'workspaceStorage', 'w', 'GitHub.copilot-chat', 'debug-logs');
    for (let s = 0; s < sessions; s++) {
      fs.mkdirSync(path.join(logs, `k${s}`), { recursive: true });
      const pad = 'p'.repeat(400);
      fs.writeFileSync(path.join(logs, `k${s}`, 'main.jsonl'), Array.from({ length: linesEach }, (_, i) => ev(`k${s}`, i, { attrs: { args: '{}', result: pad + i } })).join(''));
    }
    return sessions * linesEach;
  }

  /** Events committed so far by another process (0 while the schema is not there yet). */
  function committedEvents(dbPath: string): number {
    if (!fs.existsSync(dbPath)) return 0;
    const peek = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      return (peek.prepare('SELECT count(*) n FROM events').get() as { n: number }).n;
    } catch {
      return 0;
    } finally {
      peek.close();
    }
  }

  it('SIGKILL in the middle of a backfill, then a restart: every event exactly once', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-kill-'));
    // 36 sessions (166 MB): long enough to be killed between two commits. 12 of them (55 MB) were backfilled in
    // one ~1.1 s group on an idle machine once the backfill passed 40 MB/s, so the kill came after the last commit.
    const total = bigCorpus(root, 36, 8000);
    const db = path.join(root, 'index.db');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'index', '--logs', root, '--db', db], { stdio: 'ignore' });
    // Kill once the first batch is committed (not after a fixed time: on a busy machine start-up alone takes seconds).
    for (let waited = 0; waited < 60_000 && committedEvents(db) === 0; waited += 100) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const killed = openWriteDb(db);
    const partial = (killed.prepare('SELECT count(*) n FROM events').get() as { n: number }).n;
    killed.close();
    expect(partial).toBeLessThan(total); // the kill really landed mid-backfill
    const again = spawnSync(process.execPath, ['--import', 'tsx', cli, 'index', '--logs', root, '--db', db, '--json'], { encoding: 'utf8' });
    expect(again.status).toBe(0);
    const summary = JSON.parse(again.stdout.trim().split('\n').pop() as string) as { events: number };
    expect(summary.events).toBe(total);
    const check = openWriteDb(db);
    expect(counts(check as FixtureDb['db'])).toMatchObject({ events: total, dups: 0 });
    check.close();
    fs.rmSync(root, { recursive: true, force: true });
  }, 180_000);

  it('a corrupted database file is moved aside and rebuilt from the logs with a clear message', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 5) });
    fx.db.close();
    fs.writeFileSync(fx.dbPath, Buffer.alloc(8192, 0x41)); // not a database any more
    for (const ext of ['-wal', '-shm']) fs.rmSync(fx.dbPath + ext, { force: true });
    const { db, recovered } = openWriteDbOrRecover(fx.dbPath);
    expect(recovered).toMatch(/^The index at .* was damaged \(file is not a database\)\. It was moved to .*\.corrupt-[\dTZ-]+ and rebuilt from the logs\. The damaged file could not be read to list the sessions whose logs are gone: any such session is lost\.$/);
    ensureSchema(db);
    await indexOnce(db, [path.join(fx.root, 'Code')]);
    expect(counts(db as FixtureDb['db'])).toMatchObject({ events: 5 });
    fx.db = db;
  });

  it('`index` meeting a damaged page in the middle of the index: moved aside, rebuilt from the logs, says what was lost', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 400), 's2/main.jsonl': lines('s2', 0, 300), 'gone/main.jsonl': lines('gone', 0, 200) });
    fs.rmSync(path.dirname(main(fx, 'gone')), { recursive: true });
    await fx.reindex();
    fx.db.close();
    damageMiddlePage(fx.dbPath, 'events');
    fs.appendFileSync(main(fx, 's1'), lines('s1', 400, 401));
    const run = spawnSync(process.execPath, ['--import', 'tsx', cli, 'index', '--logs', fx.root, '--db', fx.dbPath, '--json'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^The index at .* was damaged \(database disk image is malformed\)\. It was moved to .*\.corrupt-[\dTZ-]+ and rebuilt from the logs\. 1 session whose logs are gone could not be recovered: gone\.\n/);
    expect(JSON.parse(run.stdout.trim())).toMatchObject({ events: 701, newEvents: 701 });
    fx.db = openWriteDb(fx.dbPath);
    expect(counts(fx.db)).toEqual({ events: 701, fileEvents: 701, bad: 0, fragments: 0, dups: 0 });
  }, 60_000);

  it('a query command meeting it while bringing the index up to date recovers the same way, then answers', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 400), 's2/main.jsonl': lines('s2', 0, 300) });
    fx.db.close();
    damageMiddlePage(fx.dbPath, 'events');
    // a line for each session: each one's refresh reads its events back, so whichever holds the damaged page meets it
    // (its rows are s1's or s2's; which, depends on the order the backfill took the two files in)
    fs.appendFileSync(main(fx, 's1'), lines('s1', 400, 401));
    fs.appendFileSync(main(fx, 's2'), lines('s2', 300, 301));
    const run = spawnSync(process.execPath, ['--import', 'tsx', cli, 'sql', 'SELECT count(*) n FROM events', '--logs', fx.root, '--db', fx.dbPath, '--json'], { encoding: 'utf8' });
    expect(run.stderr).toMatch(/^The index at .* was damaged \(database disk image is malformed\)\. .* Every session's logs are still on disk: nothing was lost\.\n/);
    expect([run.status, (JSON.parse(run.stdout) as { rows: unknown[] }).rows]).toEqual([0, [[702]]]);
    fx.db = openWriteDb(fx.dbPath);
  }, 60_000);

  it('a deleted database file is rebuilt from the logs', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': lines('s1', 0, 5) });
    fx.db.close();
    removeDatabaseFiles(fx.dbPath);
    const { db, recovered } = openWriteDbOrRecover(fx.dbPath);
    expect(recovered).toBeNull();
    ensureSchema(db);
    await indexOnce(db, [path.join(fx.root, 'Code')]);
    expect(counts(db as FixtureDb['db'])).toMatchObject({ events: 5 });
    fx.db = db;
  });
});
