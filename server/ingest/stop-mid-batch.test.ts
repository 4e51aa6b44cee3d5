// The worker stops the indexer and closes its connection at once (worker.ts). A batch waits for its chunks to be
// deflated on the libuv pool (archive-chunks.ts): stopped meanwhile, it must write nothing to the closed
// connection, and the open group, rolled back, is read again whole at the next start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { line } from '../test-support/fixture-db';
import { Indexer } from './indexer';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-stop-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SESSIONS = 12;
const PER_SESSION = 3000;
const logs = path.join(root, 'Code', 'User', 'workspaceStorage', 'w1', 'GitHub.copilot-chat', 'debug-logs');
for (let s = 0; s < SESSIONS; s++) {
  fs.mkdirSync(path.join(logs, `s${s}`), { recursive: true });
  const lines = Array.from({ length: PER_SESSION }, (_, i) =>
    line({ ts: 1775000000000 + i, dur: 3, sid: `s${s}`, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { result: `r${i} ${'x'.repeat(300)}` } }),
  );
  fs.writeFileSync(path.join(logs, `s${s}`, 'main.jsonl'), lines.join(''));
}

it('stopped while a batch is being deflated: nothing reaches the closed connection, and the next start reads every event once', async () => {
  const dbPath = path.join(root, 'index.db');
  const errors: unknown[] = [];
  const onRejection = (err: unknown) => errors.push(err);
  process.on('unhandledRejection', onRejection);
  try {
    for (const stopAfterMs of [30, 120, 300]) {
      const db = openWriteDb(dbPath);
      ensureSchema(db);
      const indexer = new Indexer(db, { roots: [path.join(root, 'Code')], watch: true });
      void indexer.start().catch((err) => errors.push(err));
      await new Promise((r) => setTimeout(r, stopAfterMs));
      await indexer.stop();
      db.close();
      await new Promise((r) => setTimeout(r, 200)); // a batch whose deflate was under way resumes now
    }
    expect(errors).toEqual([]);
    const db = openWriteDb(dbPath);
    const indexer = new Indexer(db, { roots: [path.join(root, 'Code')], watch: false });
    await indexer.start();
    await indexer.whenIdle();
    await indexer.stop();
    expect(db.prepare('SELECT (SELECT count(*) FROM events) n, (SELECT count(DISTINCT byte_offset || \':\' || file_id) FROM lines) distinct_lines, (SELECT sum(events) FROM files) f').get()).toEqual({
      n: SESSIONS * PER_SESSION,
      distinct_lines: SESSIONS * PER_SESSION,
      f: SESSIONS * PER_SESSION,
    });
    db.close();
  } finally {
    process.off('unhandledRejection', onRejection);
  }
}, 60_000);
