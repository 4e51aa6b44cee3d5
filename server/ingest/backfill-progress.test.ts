// Newest sessions first (issue 19 item 2): the backfill finishes every file of this week's sessions before it
// reads an older one, and reports the two parts ("this week", "older") in its progress and in /api/health.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackfillProgress, Health } from '../../shared/api';
import { createApp } from '../app';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { line } from '../test-support/fixture-db';
import { testContext } from '../test-support/test-app';
import { BATCH_BYTES } from './tail-file';
import { Indexer } from './indexer';

const DAY = 24 * 60 * 60 * 1000;
const NEWEST = Date.UTC(2026, 10, 28, 12);

let root: string | null = null;
let db: Database.Database | null = null;
afterEach(() => {
  db?.close();
  db = null;
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = null;
});

/** Lines as the writer writes them: span ids are counters restarting at 1 in every session (so they collide), both turn-id forms, a cut attr. */
function sessionLog(sid: string, events: number, pad = 0): string {
  const span = (n: number) => n.toString(16).padStart(16, '0');
  let out = line({ ts: NEWEST - 1e6, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: span(1), status: 'ok', attrs: { copilotVersion: '0.33.0' } });
  out += line({ ts: NEWEST - 1e6, dur: 5, sid, type: 'turn_start', name: 'turn_start:0', spanId: `turn_start-${span(2)}-0`, parentSpanId: span(1), status: 'ok', attrs: { turnId: 0 } });
  out += line({ ts: NEWEST - 1e6, dur: 5, sid, type: 'turn_start', name: 'turn_start:1', spanId: `turn-start-${span(2)}-1`, parentSpanId: span(1), status: 'ok', attrs: { turnId: '1' } });
  out += '{"ts": garbage\n';
  for (let i = 0; i < events; i++) {
    const result = i === 0 ? 'r'.repeat(5000) + '[truncated]' : `result ${i} ${'x'.repeat(pad)}`;
    out += line({ ts: NEWEST - 1e6 + i, dur: i % 9, sid, type: 'tool_call', name: 'read_file', spanId: span(i + 3), parentSpanId: span(2), status: 'ok', attrs: { args: `{"filePath":"/w/f${i}.ts"}`, result } });
  }
  return out;
}

interface Written {
  path: string;
  bytes: number;
  /** bytes up to the last newline: where the tailer's offset stops */
  complete: number;
}

function write(logsDir: string, rel: string, content: string, daysBeforeNewest: number): Written {
  const file = path.join(logsDir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  const t = new Date(NEWEST - daysBeforeNewest * DAY);
  fs.utimesSync(file, t, t);
  return { path: file, bytes: Buffer.byteLength(content), complete: Buffer.byteLength(content.slice(0, content.lastIndexOf('\n') + 1)) };
}

function corpus() {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-newest-'));
  const storage = path.join(root, 'Code', 'User', 'workspaceStorage', 'ws1');
  fs.mkdirSync(path.join(root, 'repos', 'ws1'), { recursive: true });
  fs.mkdirSync(storage, { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file://${path.join(root, 'repos', 'ws1')}` }));
  const logs = path.join(storage, 'GitHub.copilot-chat', 'debug-logs');
  // The newest session's main.jsonl is larger than one read (tailFile's 4 batches, each of up to about two
  // BATCH_BYTES), so it is read in several passes; its child log was last written 10 days ago, yet belongs to
  // this week's session.
  const bigMain = sessionLog('s-new', Math.ceil((10 * BATCH_BYTES) / 1100), 1000);
  expect(Buffer.byteLength(bigMain)).toBeGreaterThan(10 * BATCH_BYTES);
  const recent = [
    write(logs, 's-new/main.jsonl', bigMain, 0),
    write(logs, 's-new/runSubagent-Explore-c-new.jsonl', sessionLog('c-new', 20), 10),
    // A session still being written: its last line has no newline yet (read once it comes), and a companion file.
    write(logs, 's-week/main.jsonl', sessionLog('s-week', 30) + '{"ts":1,"type":"tool_ca', 6.5),
    write(logs, 's-week/models.json', JSON.stringify([{ id: 'gpt-4.1' }]), 6.5),
  ];
  const older = [write(logs, 's-old/main.jsonl', sessionLog('s-old', 40), 8), write(logs, 's-older/main.jsonl', sessionLog('s-older', 50), 30), write(logs, 'legacy-1.jsonl', sessionLog('legacy-1', 5), 90)];
  return { userData: path.join(root, 'Code'), recent, older };
}

const sum = (w: Written[]) => w.reduce((n, x) => n + x.bytes, 0);

describe('backfill newest sessions first', () => {
  it('finishes every file of this week before any older file, and reports both parts exactly', async () => {
    const c = corpus();
    db = openWriteDb(path.join(root!, 'index.db'));
    ensureSchema(db);
    const seen: BackfillProgress[] = [];
    const indexer = new Indexer(db, { roots: [c.userData], watch: false }, { progress: (p) => seen.push(p) });
    await indexer.start();
    await indexer.whenIdle();

    const recentTotal = { filesTotal: 4, bytesTotal: sum(c.recent) };
    const olderTotal = { filesTotal: 3, bytesTotal: sum(c.older) };
    // The first report after the listing: both parts known, nothing done.
    expect(seen.find((p) => p.state === 'running')).toMatchObject({ recent: { filesDone: 0, bytesDone: 0, ...recentTotal }, older: { filesDone: 0, bytesDone: 0, ...olderTotal } });
    // The moment this week is done it is committed and reported, with nothing older read yet.
    const weekDone = seen.find((p) => p.recent && p.recent.filesDone === p.recent.filesTotal);
    expect(weekDone).toMatchObject({ state: 'running', recent: { filesDone: 4, bytesDone: sum(c.recent), ...recentTotal }, older: { filesDone: 0, bytesDone: 0, ...olderTotal } });
    // What was reported was committed: the rows of this week's sessions, and only theirs, were there.
    expect(seen.at(-1)).toMatchObject({ state: 'idle', filesDone: 7, filesTotal: 7, recent: { filesDone: 4, bytesDone: sum(c.recent), ...recentTotal }, older: { filesDone: 3, bytesDone: sum(c.older), ...olderTotal } });

    // One number: the whole is always the sum of its two parts.
    for (const p of seen.filter((x) => x.recent && x.older)) {
      expect([p.filesDone, p.filesTotal, p.bytesDone, p.bytesTotal]).toEqual([
        p.recent!.filesDone + p.older!.filesDone,
        p.recent!.filesTotal + p.older!.filesTotal,
        p.recent!.bytesDone + p.older!.bytesDone,
        p.recent!.bytesTotal + p.older!.bytesTotal,
      ]);
    }

    // /api/health serves the figures the worker reported.
    const ctx = testContext(db, path.join(root!, 'index.db'));
    ctx.status.progress = weekDone!;
    const health = (await (await createApp(ctx).request('http://localhost/api/health', { headers: { host: 'localhost' } })).json()) as Health;
    expect(health.backfill).toEqual(weekDone);
  });

  it('reports the backfill done before it folds the write-ahead log, which the index does not need', async () => {
    const c = corpus();
    const dbPath = path.join(root!, 'index.db');
    db = openWriteDb(dbPath);
    ensureSchema(db);
    let logAtDone = -1;
    const indexer = new Indexer(db, { roots: [c.userData], watch: false }, {
      progress: (p) => {
        if (p.state === 'idle') logAtDone = fs.statSync(`${dbPath}-wal`).size;
      },
    });
    await indexer.start();
    // told "done" with the last group's pages still in the log (the fold copied them on the ingest thread first)
    expect(logAtDone).toBeGreaterThan(0);
    expect(fs.statSync(`${dbPath}-wal`).size).toBe(0); // folded right after, before start() returned
    await indexer.stop();
  });

  it('a session read in several passes is finished before the next session starts', async () => {
    const c = corpus();
    db = openWriteDb(path.join(root!, 'index.db'));
    ensureSchema(db);
    const committedAtWeekDone: { path: string; offset: number }[][] = [];
    const check = db.prepare('SELECT path, offset FROM files ORDER BY path');
    const indexer = new Indexer(db, { roots: [c.userData], watch: false }, {
      progress: (p) => {
        if (committedAtWeekDone.length === 0 && p.recent && p.recent.filesDone === p.recent.filesTotal) committedAtWeekDone.push(check.all() as { path: string; offset: number }[]);
      },
    });
    await indexer.start();
    await indexer.whenIdle();
    const files = committedAtWeekDone[0];
    expect(files.map((f) => [path.basename(path.dirname(f.path)) + '/' + path.basename(f.path), f.offset])).toEqual(
      c.recent
        .filter((w) => w.path.endsWith('.jsonl'))
        .sort((a, b) => (a.path < b.path ? -1 : 1))
        .map((w) => [path.basename(path.dirname(w.path)) + '/' + path.basename(w.path), w.complete]),
    );
  });
});
