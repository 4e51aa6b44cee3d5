// The order of watching and reading at start-up (issue 19 item 2): every log folder is watched before the backfill
// reads a file, and the roots' tree watcher starts only once this week's sessions are read. Folders created in
// between (after the listing, before the tree watcher's walk) raise no event: they must be found by the second look
// that follows the walk, read, and followed like the others.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackfillProgress } from '../../shared/api';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { line } from '../test-support/fixture-db';
import { Indexer } from './indexer';
import { until } from '../test-support/until';

let root: string | null = null;
let db: Database.Database | null = null;
let indexer: Indexer | null = null;
afterEach(async () => {
  await indexer?.stop();
  indexer = null;
  db?.close();
  db = null;
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = null;
});

const span = (n: number) => n.toString(16).padStart(16, '0');
/** Lines as the writer writes them: span ids restart at 1 in every session, both turn-id forms, a garbage line. */
function sessionLog(sid: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) {
    if (i === 0) out += line({ ts: 1775000000000, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: span(1), status: 'ok', attrs: {} });
    else if (i === 1) out += line({ ts: 1775000000001, dur: 4, sid, type: 'turn_start', name: 'turn_start:0', spanId: `turn_start-${span(2)}-0`, parentSpanId: span(1), status: 'ok', attrs: { turnId: 0 } });
    else if (i === 2) out += line({ ts: 1775000000002, dur: 4, sid, type: 'turn_start', name: 'turn_start:1', spanId: `turn-start-${span(3)}-1`, parentSpanId: span(1), status: 'ok', attrs: { turnId: '1' } });
    else out += line({ ts: 1775000000000 + i, dur: 2, sid, type: 'tool_call', name: 'read_file', spanId: span(i + 1), parentSpanId: span(2), status: 'ok', attrs: { args: '{}', result: `r${i}` } });
  }
  return out;
}

function workspace(userData: string, id: string): string {
  const storage = path.join(userData, 'User', 'workspaceStorage', id);
  const logs = path.join(storage, 'GitHub.copilot-chat', 'debug-logs');
  fs.mkdirSync(logs, { recursive: true });
  fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file:///repos/${id}` }));
  return logs;
}

function writeSession(logs: string, sid: string, events: number): string {
  const file = path.join(logs, sid, 'main.jsonl');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, sessionLog(sid, 0, events) + '{"ts": garbage\n');
  return file;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The count once it is `want`, or the last count seen when the wait ran out (the assertion then shows it). */
const countReaches = (probe: () => number, want: number) => until(probe, (v) => v === want).catch(() => probe());

describe('watching at start-up', () => {
  it('reads and follows a workspace and a session folder created after the listing, before the tree watcher walked the roots', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-watch-order-'));
    const userData = path.join(root, 'Code');
    const logs = workspace(userData, 'ws1');
    writeSession(logs, 's1', 20);
    db = openWriteDb(path.join(root, 'index.db'));
    ensureSchema(db);
    const events = db.prepare('SELECT coalesce(sum(f.events), 0) n FROM files f WHERE f.session_id = ?');
    const count = (sid: string) => (events.get(sid) as { n: number }).n;
    let late: { wsFile: string; sessionFile: string } | null = null;
    indexer = new Indexer(db, { roots: [userData], watch: true }, {
      // The first report of a running backfill comes after the listing, before anything is read or the tree watched.
      progress: (p: BackfillProgress) => {
        if (late || p.state !== 'running') return;
        late = { wsFile: writeSession(workspace(userData, 'ws-late'), 's-late-ws', 12), sessionFile: writeSession(logs, 's-late', 7) };
      },
    });
    await indexer.start();
    await indexer.whenIdle();
    expect([count('s1'), count('s-late-ws'), count('s-late')]).toEqual([20, 12, 7]);

    // Both are followed now: appended lines are read without a restart.
    fs.appendFileSync(late!.wsFile, sessionLog('s-late-ws', 12, 15));
    fs.appendFileSync(late!.sessionFile, sessionLog('s-late', 7, 9));
    expect([await countReaches(() => count('s-late-ws'), 15), await countReaches(() => count('s-late'), 9)]).toEqual([15, 9]);
  });
});
