// The order of watching and reading at start-up (issue 19 item 2): every log folder is watched before the backfill
// reads a file, and the roots' tree watcher starts only once this week's sessions are read. Folders created in
// between (after the listing, before the tree watcher's walk) raise no event: they must be found by the second look
// that follows the walk, read, and followed like the others.
//
// While it runs: a folder created inside a new folder just as the watch of that new folder starts. chokidar, which
// watched the tree before tree-watch.ts, read a new folder and only then watched it, so a folder created in that gap
// raised no event, ever (seen as a new profile's session never indexed in server/serve.test.ts under load; 2 of 900
// folders created level by level by another thread were never reported). The tree watch sets a folder's watch
// before it lists the folder; the gap is made here on purpose, right before that watch starts.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackfillProgress } from '../../shared/api';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { line } from '../test-support/fixture-db';
import { Indexer } from './indexer';
import { until } from '../test-support/until';

const realWatch = fs.watch;
let root: string | null = null;
let db: Database.Database | null = null;
let indexer: Indexer | null = null;
afterEach(async () => {
  fs.watch = realWatch;
  syncBuiltinESMExports();
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

/** Until restored: just before the tree watch's fs.watch of `dir` starts, `inGap` runs; `hit` says it ran. */
function createInTheGap(dir: string, inGap: () => void): { readonly hit: boolean } {
  let done = false;
  fs.watch = ((p: fs.PathLike, ...rest: unknown[]) => {
    // the tree watch's own watch of the folder (FolderWatch watches log folders, not this one)
    if (!done && String(p) === dir && /[\\/]tree-watch\.[jt]s/.test(new Error().stack ?? '')) {
      done = true;
      inGap();
    }
    return (realWatch as (...a: unknown[]) => fs.FSWatcher)(p, ...rest);
  }) as typeof fs.watch;
  syncBuiltinESMExports(); // for a module that imports `watch` from node:fs by name
  return {
    get hit() {
      return done;
    },
  };
}

/** An indexer following a user-data tree with one workspace session; `count(sid)` is a session's indexed events. */
async function following(): Promise<{ user: string; count: (sid: string) => number }> {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-tree-gap-'));
  const userData = path.join(root, 'Code');
  writeSession(workspace(userData, 'ws1'), 's1', 3);
  db = openWriteDb(path.join(root, 'index.db'));
  ensureSchema(db);
  const events = db.prepare('SELECT coalesce(sum(f.events), 0) n FROM files f WHERE f.session_id = ?');
  const count = (sid: string) => (events.get(sid) as { n: number }).n;
  indexer = new Indexer(db, { roots: [userData], watch: true });
  await indexer.start();
  await indexer.whenIdle();
  expect(count('s1')).toBe(3);
  return { user: path.join(userData, 'User'), count };
}

describe('folders created while the tree watcher starts watching their parent', () => {
  it('the no-workspace root: debug-logs and a session created in the gap are read, then followed', async () => {
    const { user, count } = await following();
    // globalStorage/github.copilot-chat appears; its debug-logs/g1 is created as its watch starts
    const chat = path.join(user, 'globalStorage', 'github.copilot-chat');
    const g1 = path.join(chat, 'debug-logs', 'g1');
    const gap = createInTheGap(chat, () => {
      fs.mkdirSync(g1, { recursive: true });
      fs.writeFileSync(path.join(g1, 'main.jsonl'), sessionLog('g1', 0, 4));
    });
    fs.mkdirSync(chat, { recursive: true });
    expect([await countReaches(() => count('g1'), 4), gap.hit]).toEqual([4, true]);
    // followed from then on: an append, and a new session folder beside it
    fs.appendFileSync(path.join(g1, 'main.jsonl'), sessionLog('g1', 4, 6));
    const g2 = path.join(chat, 'debug-logs', 'g2');
    fs.mkdirSync(g2);
    fs.writeFileSync(path.join(g2, 'main.jsonl'), sessionLog('g2', 0, 2));
    expect([await countReaches(() => count('g1'), 6), await countReaches(() => count('g2'), 2)]).toEqual([6, 2]);
  }, 120_000);

  it('a profile: its Copilot folder, debug-logs and a session created in the gap are read, then followed', async () => {
    const { user, count } = await following();
    const storage = path.join(user, 'profiles', 'p1', 'globalStorage');
    const session = path.join(storage, 'github.copilot-chat', 'debug-logs', 'p1s');
    const gap = createInTheGap(storage, () => {
      fs.mkdirSync(session, { recursive: true });
      fs.writeFileSync(path.join(session, 'main.jsonl'), sessionLog('p1s', 0, 5));
    });
    fs.mkdirSync(storage, { recursive: true });
    expect([await countReaches(() => count('p1s'), 5), gap.hit]).toEqual([5, true]);
    fs.appendFileSync(path.join(session, 'main.jsonl'), sessionLog('p1s', 5, 7));
    expect(await countReaches(() => count('p1s'), 7)).toBe(7);
  }, 120_000);
});
