// Where Copilot CLI sessions are found (INTEROP §3): a session-state folder, the copilot home holding it, one
// session's folder; $COPILOT_HOME and --copilot-home; and the watcher following sessions that appear later,
// rewrites and deletions (the archive outlives them).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../shared/api';
import { resolveRoots } from '../../cli/locations';
import { parseOptions } from '../../config';
import { defaultCopilotHome } from '../discover';
import { resolveRoot } from '../discover/roots';
import { startServer, type RunningServer } from '../../serve';
import { fixtureDb } from '../../test-support/fixture-db';
import { CRASHED, DETACHED, MAIN, cliTree, detachedSession, mainSession } from './cli-fixture';
import { until } from '../../test-support/until';

let root: string;
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-cli-roots-'));
  for (const [rel, content] of Object.entries(cliTree())) {
    const file = path.join(root, '.copilot', 'session-state', rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('--logs and the copilot home', () => {
  const state = () => path.join(root, '.copilot', 'session-state');

  it.each([
    ['the copilot home', () => path.join(root, '.copilot')],
    ['its session-state folder', state],
    ['one session folder', () => path.join(state(), MAIN)],
  ])('%s resolves to the session-state folder, a workspace of CLI sessions', async (_what, dir) => {
    const r = await resolveRoot(dir());
    expect(r.root).toMatchObject({ kind: 'debug-logs', exists: true, error: null });
    expect(r.workspaces).toEqual([expect.objectContaining({ debugLogsDir: state(), cli: true, noWorkspace: true })]);
  });

  it('$COPILOT_HOME moves ~/.copilot', () => {
    expect(defaultCopilotHome({ platform: 'linux', homedir: '/home/u', env: {} })).toBe('/home/u/.copilot');
    expect(defaultCopilotHome({ platform: 'linux', homedir: '/home/u', env: { COPILOT_HOME: '/data/cp' } })).toBe('/data/cp');
    expect(defaultCopilotHome({ platform: 'win32', homedir: 'C:\\Users\\u', env: {} })).toBe('C:\\Users\\u\\.copilot');
  });

  it('--copilot-home is read beside --logs; without --logs, beside the VS Code defaults', async () => {
    const home = path.join(root, '.copilot');
    expect((await resolveRoots(parseOptions(['index', '--logs', '/x/logs', '--copilot-home', home]))).roots).toEqual([path.resolve('/x/logs'), home]);
    const d = await resolveRoots(parseOptions(['index', '--copilot-home', home]));
    expect(d.roots[d.roots.length - 1]).toBe(home);
    expect(d.fromDefaults).toBe(true);
  });
});

describe('the tailer guarantees, for events.jsonl', () => {
  it('a deleted session folder stays in the index, marked deleted; a rewritten file adds only its new lines', async () => {
    const fx = await fixtureDb({}, { cli: cliTree() });
    try {
      const count = (id: string) => (fx.db.prepare('SELECT event_count n, log_deleted d FROM sessions WHERE id = ?').get(id) as { n: number; d: number });
      fs.rmSync(path.join(fx.sessionStateDir, DETACHED), { recursive: true });
      // rewritten in place (a new inode, the same lines then one more)
      const file = path.join(fx.sessionStateDir, MAIN, 'events.jsonl');
      const extra = JSON.stringify({ type: 'session.info', id: 'dddddddd-0000-4000-9000-000000000001', timestamp: '2026-11-30T09:00:30.000Z', parentId: null, data: { message: 'later' } });
      fs.rmSync(file);
      fs.writeFileSync(file, mainSession() + extra + '\n');
      await fx.reindex();
      expect(count(DETACHED)).toEqual({ n: 2, d: 1 });
      expect(count(MAIN)).toEqual({ n: 29, d: 0 });
      expect(count(CRASHED).n).toBe(9);
    } finally {
      fx.cleanup();
    }
  });
});

describe('the watcher', () => {
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('follows a CLI session created while serving, and its appended lines', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-cli-live-'));
    const state = path.join(dir, '.copilot', 'session-state');
    fs.mkdirSync(path.join(state, MAIN), { recursive: true });
    fs.writeFileSync(path.join(state, MAIN, 'events.jsonl'), mainSession());
    try {
      server = await startServer({ dbPath: path.join(dir, 'index.db'), roots: [path.join(dir, '.copilot')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });
      await server.backfilled;
      const detail = async (id: string) => {
        const r = await fetch(`${server!.url}/api/sessions/${id}`);
        return r.status === 200 ? ((await r.json()) as SessionDetail) : null;
      };
      expect((await detail(MAIN))?.eventCount).toBe(28);
      const lines = detachedSession().split('\n');
      fs.mkdirSync(path.join(state, DETACHED));
      fs.writeFileSync(path.join(state, DETACHED, 'events.jsonl'), lines[0] + '\n');
      await until(() => detail(DETACHED), (d) => d?.eventCount === 1);
      fs.appendFileSync(path.join(state, DETACHED, 'events.jsonl'), lines[1] + '\n');
      await until(() => detail(DETACHED), (d) => d?.eventCount === 2);
      expect(await detail(DETACHED)).toMatchObject({ source: 'cli', parentId: MAIN, title: 'Write the changelog' });
    } finally {
      await server?.close();
      server = null;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
