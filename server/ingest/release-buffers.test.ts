// An idle ingest worker lets go of the buffers it keeps for the next batch (Indexer.releaseBuffers, worker.ts). The
// release can come while a batch is read ahead or deflating on the pool: every line must still be archived as written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openWriteDb } from '../db/open';
import { rawLines } from '../db/raw-lines';
import { ensureSchema } from '../db/schema';
import { line } from '../test-support/fixture-db';
import { Indexer } from './indexer';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-release-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const SESSIONS = 3;
// ~2.4 MB a file: each is read in several batches of the ring's 1 MB slots
const PER_SESSION = 6000;
const logs = path.join(root, 'Code', 'User', 'workspaceStorage', 'w1', 'GitHub.copilot-chat', 'debug-logs');
const written = new Map<string, string>();
for (let s = 0; s < SESSIONS; s++) {
  fs.mkdirSync(path.join(logs, `s${s}`), { recursive: true });
  const lines = Array.from({ length: PER_SESSION }, (_, i) =>
    line({ ts: 1775000000000 + i, dur: 3, sid: `s${s}`, type: 'tool_call', name: 'read_file', spanId: (i + 1).toString(16).padStart(16, '0'), status: 'ok', attrs: { result: `s${s} r${i} ${String.fromCharCode(97 + (i % 26)).repeat(300)}` } }),
  );
  for (const [i, l] of lines.entries()) written.set(`s${s}:${i + 1}`, l.trimEnd());
  fs.writeFileSync(path.join(logs, `s${s}`, 'main.jsonl'), lines.join(''));
}

it('buffers released between and during batches: every line archived byte for byte, once', async () => {
  const db = openWriteDb(path.join(root, 'index.db'));
  ensureSchema(db);
  let releases = 0;
  const indexer: Indexer = new Indexer(db, { roots: [path.join(root, 'Code')], watch: false }, { indexed: () => (indexer.releaseBuffers(), releases++) });
  const often = setInterval(() => (indexer.releaseBuffers(), releases++), 1);
  try {
    await indexer.start();
    await indexer.whenIdle();
  } finally {
    clearInterval(often);
  }
  await indexer.stop();
  expect(releases).toBeGreaterThan(SESSIONS);
  const rows = db.prepare('SELECT l.id, f.folder_session_id s, l.line_no n FROM lines l JOIN files f ON f.id = l.file_id').all() as { id: number; s: string; n: number }[];
  expect(rows.length).toBe(SESSIONS * PER_SESSION);
  const reader = rawLines(db);
  const wrong = rows.filter((r) => reader.text(r.id) !== written.get(`${r.s}:${r.n}`));
  expect(wrong).toEqual([]);
  db.close();
}, 60_000);
