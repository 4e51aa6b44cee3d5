// The CLI's exit codes and error lines (issue 14 items 2 and 8), through the real entry: runCli in-process for
// most cases, the built-from-source process (`node --import tsx server/main.ts`) where the process itself
// matters (an exit code lost when the process ended early, a port in use, serve's problems in /api/health).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Health } from '../../shared/api';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { IngestStore } from '../ingest/store';
import { denyAccess } from '../test-support/deny-access';
import { runCliCaptured } from '../test-support/run-cli-captured';
import { VERSION } from '../version';

const S1 = 'cccccccc-0000-4000-8000-000000000001';
let fx: FixtureDb;
let logs: string;
let tmp: string;
beforeAll(async () => {
  fx = await fixtureDb({
    [`${S1}/main.jsonl`]:
      line({ ts: 1_775_000_000_000, dur: 0, sid: S1, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: {} }) +
      line({ ts: 1_775_000_000_010, dur: 0, sid: S1, type: 'user_message', name: 'user_message', spanId: '0000000000000002', status: 'ok', attrs: { content: 'why does the retry loop spin' } }),
  });
  logs = path.join(fx.root, 'Code');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-cli-'));
});
afterAll(() => {
  fx.cleanup();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCliCaptured(args);
const q = (...args: string[]) => cli(...args, '--logs', logs, '--db', fx.dbPath);

describe('--logs that cannot be indexed (index and the query commands: exit 2, which path and why)', () => {
  it('a folder that does not exist, and with --json the error body on stdout', async () => {
    const db = path.join(tmp, 'missing.db');
    const r = await cli('index', '--logs', '/nonexistent/logs', '--db', db);
    expect(r).toEqual({ code: 2, out: '', err: 'chronoscope index: --logs /nonexistent/logs: does not exist\n' });
    expect(fs.existsSync(db)).toBe(false); // nothing was created, let alone a demo corpus
    const j = await cli('search', 'retry', '--logs', '/nonexistent/logs', '--db', db, '--json');
    expect(j.code).toBe(2);
    expect(JSON.parse(j.out)).toEqual({ error: { code: 'bad_logs', message: '--logs /nonexistent/logs: does not exist' } });
  });

  it('a path that is a file, not a folder (root reads every folder: this is the unreadable case a test can make)', async () => {
    const file = path.join(tmp, 'a-file');
    fs.writeFileSync(file, 'x');
    expect(await cli('slow', '--logs', file, '--db', path.join(tmp, 'f.db'))).toMatchObject({ code: 2, err: `chronoscope slow: --logs ${file}: is not a folder\n` });
  });

  it('a folder whose listing is refused (EACCES, made the way the kernel reports it to a non-root user)', async () => {
    const locked = path.join(tmp, 'locked');
    fs.mkdirSync(locked, { recursive: true });
    denyAccess('readdirSync', locked);
    try {
      expect(await cli('index', '--logs', locked, '--db', path.join(tmp, 'l.db'))).toMatchObject({ code: 2, err: `chronoscope index: --logs ${locked}: cannot be read (EACCES)\n` });
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('an existing folder without Copilot logs: indexed, nothing found (exit 1), and how to turn logging on', async () => {
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    const r = await cli('index', '--logs', empty, '--db', path.join(tmp, 'e.db'));
    expect(r.code).toBe(1);
    expect(r.err).toBe(`no Copilot debug logs under ${empty}: turn on "github.copilot.chat.agentDebugLog.fileLogging.enabled": true in VS Code, use Copilot Chat, then index again\n`);
    // a query command on an index that is still empty says the same, not only "no sessions found"
    const s = await cli('search', 'retry', '--logs', empty, '--db', path.join(tmp, 'e.db'));
    expect(s.code).toBe(1);
    expect(s.err).toBe(`no Copilot debug logs under ${empty}: turn on "github.copilot.chat.agentDebugLog.fileLogging.enabled": true in VS Code, use Copilot Chat, then index again\n`);
    // an index that holds sessions answers without it, even when their logs are gone
    const kept = path.join(tmp, 'kept.db');
    expect((await cli('index', '--logs', logs, '--db', kept)).code).toBe(0);
    expect(await cli('search', 'retry', '--logs', empty, '--db', kept)).toMatchObject({ code: 0, err: '' });
  });

  it('--demo never shares a database or logs with the user', async () => {
    const r = await cli('serve', '--demo', '--db', path.join(tmp, 'mine.db'));
    expect(r).toMatchObject({ code: 2, err: 'chronoscope: --demo: the demo corpus has its own database (demo.db in the state folder): drop --logs and --db, or drop --demo (run `chronoscope --help` for usage)\n' });
  });
});

describe('exit codes: 0 done, 1 nothing found, 2 bad input (one line; --json prints the error body)', () => {
  it('0 with results, 1 with none, for every query command', async () => {
    expect((await q('search', 'retry')).code).toBe(0);
    expect((await q('search', 'nothing-like-this')).code).toBe(1);
    expect((await q('sql', 'SELECT id FROM sessions')).code).toBe(0);
    expect((await q('sql', "SELECT id FROM sessions WHERE id = 'nope'")).code).toBe(1);
    expect((await q('slow')).code).toBe(1); // no call with a duration in this fixture
    expect((await q('errors')).code).toBe(1);
    expect((await q('stats')).code).toBe(1);
    expect((await q('trace', S1)).code).toBe(0);
    expect((await q('index')).code).toBe(0);
  }, 60_000);

  it.each([
    [['sql', 'SELECT * FROM no_such_table'], 'sql_error', expect.stringMatching(/^no such table: no_such_table \(the tables: backfill_runs, checkpoints, .*, sessions, turns, workspaces\)$/)],
    [['sql', 'SELECT * FROM event'], 'sql_error', 'no such table: event (did you mean events?)'],
    [['sql', 'SELECT no_such_fn(1)'], 'sql_error', 'no such function: no_such_fn'],
    [['sql', 'SELECT FROM WHERE'], 'sql_error', 'near "FROM": syntax error'],
    [['sql', "SELECT rowid FROM event_text WHERE event_text MATCH '\"unterminated'"], 'sql_error', expect.stringMatching(/unterminated string|fts5: syntax error/)],
    [['sql', 'SELECT 1; DROP TABLE sessions'], 'sql_refused', expect.stringMatching(/^refused: only one statement/)],
    [['trace', 'no-such-session'], 'not_found', 'no session no-such-session in the index: check the id (`chronoscope search` finds sessions)'],
    [['search', 'io'], 'bad_query', expect.stringMatching(/^"io" is too short/)],
    [['search', 'retry', '--window', '1y'], 'bad_request', expect.stringMatching(/^--window: /)],
    [['slow', '--min', 'fast'], 'bad_request', expect.stringMatching(/^--min: /)],
    [['slow', '--source', 'emacs'], 'bad_request', expect.stringMatching(/^--source: /)],
    [['errors', '--type', 'nope'], 'bad_request', expect.stringMatching(/^--type: /)],
    [['stats', '--by', 'colour'], 'bad_request', expect.stringMatching(/^--by: /)],
    [['search', 'retry', '--colour'], 'bad_request', 'unknown option --colour (run `chronoscope --help` for usage)'],
    [['slow', '--minimum', '5000'], 'bad_request', 'unknown option --minimum: did you mean --min? (run `chronoscope --help` for usage)'],
    [['frobnicate'], 'bad_request', 'unknown command "frobnicate". Commands: serve, index, search, slow, errors, stats, usage, trace, mcp, export, import, sql'],
    [['serch', 'retry'], 'bad_request', 'unknown command "serch": did you mean search? Commands: serve, index, search, slow, errors, stats, usage, trace, mcp, export, import, sql'],
  ])('%j: exit 2, %s', async (args, code, message) => {
    const text = await q(...args);
    expect(text.code).toBe(2);
    expect(text.out).toBe('');
    expect(text.err.split('\n')).toEqual([expect.stringMatching(/^chronoscope( \w+)?: /), '']);
    const json = await q(...args, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: { code, message } });
  }, 60_000);

  it('--no-index without an index, and an index on a full disk: exit 2 saying what to fix', async () => {
    const none = path.join(tmp, 'never.db');
    expect(await cli('errors', '--no-index', '--db', none)).toMatchObject({ code: 2, err: `chronoscope errors: no index at ${none}: run \`chronoscope index\` first or drop --no-index\n` });
    fs.appendFileSync(path.join(fx.logsDir(), S1, 'main.jsonl'), line({ ts: 1_775_000_000_020, dur: 5, sid: S1, type: 'tool_call', name: 'read_file', spanId: '0000000000000003', status: 'ok', attrs: {} }));
    vi.spyOn(IngestStore.prototype, 'writeBatch').mockImplementation(() => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    });
    try {
      const r = await q('index', '--json');
      expect(r.code).toBe(2);
      const message = `disk full: ${fx.dbPath} (database or disk is full): free space on that volume (or pass --db FILE on another) and run again; what was indexed before is kept`;
      expect(JSON.parse(r.out)).toEqual({ error: { code: 'disk_full', message } });
      expect(r.err).toBe(`chronoscope index: ${message}\n`);
    } finally {
      vi.restoreAllMocks();
    }
    expect((await q('index')).code).toBe(0);
  });

  it('--no-index on a folder or on a file that is not an index: exit 2 naming it and what to do', async () => {
    const folder = fs.mkdtempSync(path.join(tmp, 'not-an-index-'));
    expect(await cli('errors', '--no-index', '--db', folder)).toMatchObject({ code: 2, err: `chronoscope errors: ${folder} is a folder, not an index: pass --db FILE\n` });
    const garbage = path.join(tmp, 'garbage.db');
    fs.writeFileSync(garbage, 'not a database, only text');
    expect(await cli('slow', '--no-index', '--db', garbage)).toMatchObject({
      code: 2,
      err: `chronoscope slow: the index ${garbage} is damaged or not an index (file is not a database): run \`chronoscope index --db ${garbage}\` to move it aside and build it again from the logs\n`,
    });
    expect(fs.readFileSync(garbage, 'utf8')).toBe('not a database, only text'); // a read never moves it
  });

  it('a --db where no index can be made (a folder in its place, a file where its folder should be): exit 2 naming it', async () => {
    const folder = fs.mkdtempSync(path.join(tmp, 'a-folder-'));
    const r = await cli('index', '--logs', logs, '--db', folder, '--json');
    const message = `cannot open the index ${folder} for writing (unable to open database file): pass --db FILE, a file in a folder you can write to`;
    expect([r.code, r.err]).toEqual([2, `chronoscope index: ${message}\n`]);
    expect(JSON.parse(r.out)).toEqual({ error: { code: 'db_unwritable', message } });
    const file = path.join(tmp, 'plain-file');
    fs.writeFileSync(file, 'x');
    const under = path.join(file, 'index.db');
    expect(await cli('search', 'retry', '--logs', logs, '--db', under)).toMatchObject({
      code: 2,
      err: `chronoscope search: cannot open the index ${under} for writing (${file} is a file, not a folder): pass --db FILE, a file in a folder you can write to\n`,
    });
  });
});

// The real process: what a shell sees.
const repo = path.resolve(__dirname, '..', '..');
const main = ['--import', 'tsx', 'server/main.ts'];
const env = { ...process.env, CI: '' };

describe('what a person types at the prompt', () => {
  it('--version and -v print the version, --json as JSON, exit 0', async () => {
    expect(await cli('--version')).toEqual({ code: 0, out: `chronoscope ${VERSION}\n`, err: '' });
    expect(await cli('-v')).toEqual({ code: 0, out: `chronoscope ${VERSION}\n`, err: '' });
    expect(await cli('--version', '--json')).toEqual({ code: 0, out: `${JSON.stringify({ version: VERSION })}\n`, err: '' });
  });

  // `slow --type tool` (the word `errors --type` takes) listed nothing and said nothing: slow's types are the log's.
  it('slow with a type no log writes says which were meant, and still exits 1', async () => {
    expect(await q('slow', '--type', 'tool')).toEqual({
      code: 1,
      out: expect.stringContaining('0 of 0 events'),
      err: 'chronoscope slow: no entry of Copilot\'s logs has type "tool": did you mean tool_call? (llm_request, tool_call, subagent, hook, generic, discovery, …)\n',
    });
    expect((await q('slow', '--type', 'model')).err).toContain('did you mean llm_request?');
    expect((await q('slow', '--type', 'llm_request')).err).toBe(''); // a real type: nothing to say
    expect((await q('slow', '--type', 'tool.execution_start')).err).toBe(''); // a Copilot CLI type, as written
  });

  // `search retry -spin` was refused ("Unknown option '-s'"); `search -- retry -spin --db …` searched for "--db" too.
  it('a search word with "-" excludes it, with options after it', async () => {
    const found = await q('search', 'retry', '--json');
    expect(found.code).toBe(0);
    expect(JSON.parse(found.out).totals.sessions).toBe(1);
    const excluded = await q('search', 'retry', '-spin', '--json');
    expect(excluded.code).toBe(1);
    expect(JSON.parse(excluded.out).query.terms).toEqual([
      { text: 'retry', exclude: false, phrase: false, index: 'trigram' },
      { text: 'spin', exclude: true, phrase: false, index: 'trigram' },
    ]);
    expect(JSON.parse((await q('search', '-flaky', 'retry', '--json')).out).totals.sessions).toBe(1);
  });
});

describe('the chronoscope process', () => {
  it('sql with an SQL error exits 2 with the error body on stdout (it exited 0 with nothing: the exit came before the code)', () => {
    const r = spawnSync(process.execPath, [...main, 'sql', 'SELECT * FROM sesions', '--json', '--logs', logs, '--db', fx.dbPath], { cwd: repo, encoding: 'utf8', timeout: 60_000 });
    expect([r.status, JSON.parse(r.stdout)]).toEqual([2, { error: { code: 'sql_error', message: 'no such table: sesions (did you mean sessions?)' } }]);
    expect(r.stderr).toBe('chronoscope sql: no such table: sesions (did you mean sessions?)\n');
  }, 60_000);

  const servers: ChildProcess[] = [];
  afterAll(() => {
    for (const s of servers) s.kill('SIGKILL');
  });

  /** `chronoscope serve …` until it prints its URL (or exits); resolves with what it printed. */
  function serve(args: string[], extraEnv: Record<string, string> = {}): Promise<{ child: ChildProcess; out: () => string; url: string | null; code: number | null; err: () => string }> {
    const child = spawn(process.execPath, [...main, 'serve', ...args], { cwd: repo, env: { ...env, ...extraEnv } });
    servers.push(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += String(d)));
    return new Promise((resolve) => {
      child.stdout!.on('data', (d) => {
        out += String(d);
        const m = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) resolve({ child, out: () => out, err: () => err, url: m[1], code: null });
      });
      child.on('exit', (code) => resolve({ child, out: () => out, err: () => err, url: null, code }));
    });
  }

  it('serve with no --logs, no logs on the machine and a --db: the empty index with how to turn logging on, never the demo', async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    const db = path.join(tmp, 'named.db');
    const r = await serve(['--port', '0', '--db', db], { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, 'state'), VSCODE_PORTABLE: '', VSCODE_APPDATA: '' });
    expect(r.url).not.toBeNull();
    expect(r.out()).toContain('No Copilot Chat debug logs found on this machine.\n');
    expect(r.out()).toContain(`Serving the empty index ${db} (the demo corpus never goes into a database named with --db)`);
    const h = (await fetch(`${r.url}/api/health`).then((res) => res.json())) as Health;
    expect(h).toMatchObject({ demo: false, events: 0, files: 0 });
    expect(fs.existsSync(path.join(home, 'state', 'chronoscope', 'demo-corpus'))).toBe(false);
    r.child.kill('SIGTERM');
    await new Promise((res) => r.child.on('exit', res));
  }, 60_000);

  // The archive outlives Copilot's deletions: with every log folder gone, `serve` (and `npm start`) served the demo
  // corpus from a database of its own and said so, while the user's index held every session it had read.
  it('serve with no logs on the machine and an index that holds sessions: that index, never the demo', async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    const state = path.join(home, 'state');
    const archive = path.join(state, 'chronoscope', 'chronoscope.db');
    // a session with a title child: one session in the list (the child is a session row of its own, not listed)
    const kept = path.join(tmp, 'kept', 'Code');
    const folder = path.join(kept, 'User', 'workspaceStorage', 'w1', 'GitHub.copilot-chat', 'debug-logs', S1);
    const CHILD = 'cccccccc-0000-4000-8000-0000000000c1';
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'main.jsonl'), line({ ts: 1_775_000_000_000, dur: 0, sid: S1, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'why does the retry loop spin' } }));
    fs.writeFileSync(path.join(folder, `title-${CHILD}.jsonl`), line({ ts: 1_775_000_000_005, dur: 300, sid: CHILD, type: 'llm_request', name: 'chat:gpt-4o-mini', spanId: '0000000000000001', status: 'ok', attrs: { model: 'gpt-4o-mini' } }));
    const indexed = await cli('index', '--logs', kept, '--db', archive, '--json');
    expect(indexed.code).toBe(0);
    const { events } = JSON.parse(indexed.out) as { events: number };
    const machine = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: state, VSCODE_PORTABLE: '', VSCODE_APPDATA: '' };
    const r = await serve(['--port', '0'], machine);
    expect(r.url).not.toBeNull();
    expect(r.out()).toContain('No Copilot Chat debug logs found on this machine.\n');
    expect(r.out()).toContain(`Serving the index ${archive}: 1 session indexed before, kept after its logs are gone; new sessions appear as they are written.`);
    const h = (await fetch(`${r.url}/api/health`).then((res) => res.json())) as Health;
    expect(h).toMatchObject({ demo: false, dbPath: archive, sessions: 1, events });
    expect(fs.existsSync(path.join(state, 'chronoscope', 'demo-corpus'))).toBe(false);
    r.child.kill('SIGTERM');
    await new Promise((res) => r.child.on('exit', res));
    const named = await serve(['--port', '0', '--db', archive], machine);
    expect(named.out()).toContain(`Serving the index ${archive}: 1 session indexed before`);
    expect(named.out()).not.toContain('empty index');
    named.child.kill('SIGTERM');
    await new Promise((res) => named.child.on('exit', res));
  }, 60_000);

  // The imports folder beside the index was made before the index was opened, so a --db under a file said
  // "ENOTDIR: not a directory, mkdir '…/x.db.imports/User/workspaceStorage/…'".
  it('serve --db under a file: exit 2 naming the file in the way, as index does', async () => {
    const file = path.join(tmp, 'plain-file');
    fs.writeFileSync(file, 'x');
    const db = path.join(file, 'x.db');
    const r = await serve(['--port', '0', '--logs', logs, '--db', db]);
    expect(r.code).toBe(2);
    expect(r.err()).toBe(`chronoscope serve: cannot open the index ${db} for writing (${file} is a file, not a folder): pass --db FILE, a file in a folder you can write to\n`);
  }, 60_000);

  it('a port in use: exit 2, one line naming the port and what to pass instead (it printed a stack trace)', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await serve(['--port', String(port), '--logs', logs, '--db', path.join(tmp, 'port.db')]);
      expect(r.code).toBe(2);
      expect(r.err()).toBe(`chronoscope serve: port ${port} on 127.0.0.1 is already in use (another Chronoscope?): pass --port N, or --port 0 for any free port\n`);
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('serve --logs <missing> --open without a browser: a problem in health, no demo rows, says it could not open one, and indexes the folder when it appears', async () => {
    const later = path.join(tmp, 'later', 'Code');
    const db = path.join(tmp, 'serve-missing.db');
    const noBrowser = fs.mkdtempSync(path.join(tmp, 'bin-'));
    const r = await serve(['--port', '0', '--open', '--logs', later, '--db', db], { PATH: `${noBrowser}:${path.dirname(process.execPath)}` });
    expect(r.url).not.toBeNull();
    expect(r.out()).toContain(`--logs ${later}: does not exist; watching for it to appear.\n`);
    const health = () => fetch(`${r.url}/api/health`).then((res) => res.json() as Promise<Health>);
    const until = async (ok: (h: Health) => boolean) => {
      for (let i = 0; i < 400; i++) {
        const h = await health();
        if (ok(h)) return h;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(JSON.stringify(await health()).slice(0, 500));
    };
    const h = await until((x) => x.backfill.state === 'idle');
    // The second root is the database's imports tree (`chronoscope import`), always there.
    expect(h).toMatchObject({ demo: false, events: 0, files: 0, roots: [{ path: later, exists: false, error: `${later} does not exist` }, { path: `${db}.imports`, exists: true }] });
    // No xdg-open on PATH, or one that finds no browser (exit 3 on this machine): both are said, never silent.
    expect(r.out()).toMatch(/could not open a browser \(xdg-open (not found|exited with \d+)\): open http:\/\/127\.0\.0\.1:\d+ yourself; the server keeps running/);
    const logsDir = path.join(later, 'User', 'workspaceStorage', 'w9', 'GitHub.copilot-chat', 'debug-logs', 's9');
    fs.mkdirSync(logsDir, { recursive: true });
    fs.writeFileSync(path.join(logsDir, 'main.jsonl'), line({ ts: 1, dur: 0, sid: 's9', type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'hello' } }));
    const found = await until((x) => x.events === 1);
    expect(found.roots[0]).toEqual({ path: later, exists: true, error: null });
    r.child.kill('SIGTERM');
    await new Promise((res) => r.child.on('exit', res));
    const check = openReadDb(db);
    expect(check.prepare('SELECT count(*) n FROM sessions').get()).toEqual({ n: 1 });
    check.close();
  }, 90_000);
});
