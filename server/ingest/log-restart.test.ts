// The indexer lets a long write-ahead log restart before its next group (LogRestart, server/db/write-ahead-log.ts):
// after a commit that left the log long, the next group waits for a query still reading the log, so that its first
// write starts the log over instead of appending to it. Here the threshold is small (the server's is 250 MB).
import Database from 'better-sqlite3';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { LogRestart } from '../db/write-ahead-log';
import { line } from '../test-support/fixture-db';
import { until } from '../test-support/until';
import { Indexer } from './indexer';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-log-restart-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const logs = path.join(root, 'Code', 'User', 'workspaceStorage', 'w1', 'GitHub.copilot-chat', 'debug-logs');
const file = path.join(logs, 's1', 'main.jsonl');
let nextSpan = 1;
/** `n` tool calls of ~1 KB each (random: the archive deflates them), appended to the session's log. */
function append(n: number): void {
  const lines = Array.from({ length: n }, () => {
    const i = nextSpan++;
    return line({ ts: 1775000000000 + i, dur: 3, sid: 's1', type: 'tool_call', name: 'read_file', spanId: i.toString(16).padStart(16, '0'), status: 'ok', attrs: { result: `r${i} ${crypto.randomBytes(500).toString('hex')}` } });
  });
  fs.appendFileSync(file, lines.join(''));
}

/** Frames in the archive's log now (a PASSIVE checkpoint reports it; a restarted log holds only what came after). */
const framesInLog = (db: Database.Database): number => (db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[])[0].log;

async function scenario(longBytes: number): Promise<{ before: number; after: number; events: number }> {
  const dir = fs.mkdtempSync(path.join(root, 'db-'));
  const dbPath = path.join(dir, 'index.db');
  const db = openWriteDb(dbPath);
  ensureSchema(db);
  const indexer = new Indexer(db, { roots: [path.join(root, 'Code')], watch: true });
  (indexer as unknown as { logRestart: LogRestart }).logRestart = new LogRestart(db, { longBytes, waitMs: 10, tries: 100 });
  const reader = new Database(dbPath, { readonly: true });
  const probe = new Database(dbPath, { readonly: true });
  const count = (c: Database.Database) => (c.prepare('SELECT count(*) n FROM events').get() as { n: number }).n;
  try {
    await indexer.start();
    await indexer.whenIdle();
    const base = count(probe);
    // a query that began before a live commit of ~3 MB and is still running: the checkpoint after that commit
    // stops short of its snapshot, and the log stays long (past longBytes, far under the writer's own checkpoint)
    reader.exec('BEGIN');
    count(reader);
    append(3000);
    await until(() => count(probe), (n) => n === base + 3000);
    const before = framesInLog(db);
    // more lines while that query still runs; it ends 150 ms later
    append(10);
    setTimeout(() => reader.exec('COMMIT'), 150);
    await until(() => !reader.inTransaction && count(probe) === base + 3010, (ok) => ok);
    return { before, after: framesInLog(db), events: count(probe) };
  } finally {
    await indexer.stop();
    if (reader.inTransaction) reader.exec('COMMIT');
    reader.close();
    probe.close();
    db.close();
  }
}

it('after a commit that left the log long, the next group waits for the query in the log, and its first write starts the log over', async () => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  append(10);
  const restarted = await scenario(256 * 1024);
  expect(restarted.before).toBeGreaterThan(100); // ~3 MB of 16 KiB pages
  expect(restarted.after).toBeLessThan(20); // the 10 lines' group alone
  expect(restarted.events).toBe(3020);
  // the same with the server's threshold, which a 3 MB log does not reach: the group appends to the long log
  const appended = await scenario(250 * 1024 * 1024);
  expect(appended.after).toBeGreaterThan(appended.before);
  expect(appended.events).toBe(6030); // a new index of the same log, 3,010 lines longer by now
}, 60_000);
