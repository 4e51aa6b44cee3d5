// One number everywhere (issue 13): on a user-data folder written like the current logger (sessions in two
// workspaces, the no-workspace root, a profile root, one session id under two roots), every view that shows a
// session's event count or the index's file count shows the same figure, and it is the one jq counts.
import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SearchQuery } from '../../shared/api';
import { runIndex } from '../cli/index-command';
import { backfillBanner } from '../cli/serve-command';
import { parseOptions } from '../config';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { getHealth } from '../health/health';
import { indexOnce } from '../ingest/index-once';
import { formatSearch } from '../search/format-cli';
import { searchSessions } from '../search/search-sessions';
import { getSessionDetail } from '../sessions/session-detail';
import { listRepositories } from '../sessions/list-repositories';
import { listSessions } from '../sessions/list-sessions';
import { testContext } from '../test-support/test-app';
import { jqEventCount, writeUserDataTree, type SessionSpec, type UserDataTree } from '../test-support/user-data-tree';
import { indexTotals } from './index-totals';

const T = Date.UTC(2026, 10, 20);
const OLD = T - 86_400_000;
const NEW = T + 86_400_000;
const SESSIONS: SessionSpec[] = [
  { root: 'alpha', id: 'sA', marker: 'zebrafish', requests: 3, turnForm: 'code', child: true, garbage: true, mtime: T, tsBase: T },
  { root: 'beta', id: 'sB', marker: 'zebrafish', requests: 2, turnForm: 'skill', garbage: true, mtime: T, tsBase: T + 10_000 },
  { root: 'global', id: 'sG', marker: 'zebrafish', requests: 2, turnForm: 'skill', child: true, mtime: T, tsBase: T + 20_000 },
  { root: 'profile:p1', id: 'sP', marker: 'zebrafish', requests: 1, turnForm: 'code', garbage: true, mtime: T, tsBase: T + 30_000 },
  // one id under a workspace and the no-workspace root: the no-workspace copy is newer, the workspace must stay
  { root: 'alpha', id: 'sX', marker: 'zebrafish', requests: 1, turnForm: 'code', mtime: OLD, tsBase: T + 40_000 },
  { root: 'global', id: 'sX', marker: 'zebrafish', requests: 2, turnForm: 'skill', garbage: true, mtime: NEW, tsBase: T + 50_000 },
  // one id under two workspaces: the copy written last (beta) gives the workspace
  { root: 'alpha', id: 'sY', marker: 'zebrafish', requests: 1, turnForm: 'skill', mtime: OLD, tsBase: T + 60_000 },
  { root: 'beta', id: 'sY', marker: 'zebrafish', requests: 1, turnForm: 'code', child: true, mtime: NEW, tsBase: T + 70_000 },
];

let dir: string;
let tree: UserDataTree;
let db: Database.Database;
let dbPath: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-counts-'));
  tree = writeUserDataTree(path.join(dir, 'Code'), SESSIONS);
  dbPath = path.join(dir, 'index.db');
  db = openWriteDb(dbPath);
  ensureSchema(db);
  await indexOnce(db, [tree.userDataDir]);
}, 60_000);

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The jq count of a session: every log file of its folder, in every root that holds one. */
const jqOf = (id: string) => jqEventCount(tree.logFiles.filter((f) => path.basename(path.dirname(f)) === id));

describe('every root, one session per id', () => {
  it('finds every session: two workspaces, the no-workspace root, a profile root; an id under two roots is one session', () => {
    const list = listSessions(db, { window: 'all', children: '0', limit: 100 });
    expect(list.sessions.map((s) => s.id).sort()).toEqual(['sA', 'sB', 'sG', 'sP', 'sX', 'sY']);
    expect(list.total).toBe(6);
  });

  it('no-workspace sessions have no repository; a merged session takes the newest copy with a workspace', () => {
    const list = listSessions(db, { window: 'all', children: '0', limit: 100 });
    expect(Object.fromEntries(list.sessions.map((s) => [s.id, s.repository]))).toEqual({
      sA: 'alpha',
      sB: 'beta',
      sG: null,
      sP: null,
      sX: 'alpha',
      sY: 'beta',
    });
  });

  it('a merged session keeps every file of every root', () => {
    expect(getSessionDetail(db, 'sX')!.logFiles.map((f) => path.relative(tree.userDataDir, f.path)).sort()).toEqual([
      'User/globalStorage/github.copilot-chat/debug-logs/sX/main.jsonl',
      'User/workspaceStorage/alpha/GitHub.copilot-chat/debug-logs/sX/main.jsonl',
    ]);
  });

  it('search groups the no-workspace sessions under "No workspace", in the API and the CLI', () => {
    const r = searchSessions(db, SearchQuery.parse({ q: 'zebrafish', depth: 'all', perGroup: 100, limit: 100 }));
    const groups = r.groups.map((g) => [g.repository, g.sessions.map((s) => s.id).sort()] as const);
    expect(Object.fromEntries(groups)).toEqual({ alpha: ['sA', 'sX'], beta: ['sB', 'sY'], null: ['sG', 'sP'] });
    expect(groups[groups.length - 1][0]).toBeNull(); // the no-workspace group comes last
    const headings = formatSearch('zebrafish', r, T, false)
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith(' ') && !l.startsWith('Search results'));
    expect(headings.sort()).toEqual(['No workspace', 'alpha', 'beta']);
  });

  it('the repository filter counts the no-workspace sessions as one group', () => {
    const repos = listRepositories(db, { window: 'all' }).repositories;
    expect(Object.fromEntries(repos.map((r) => [String(r.name), r.sessions]))).toEqual({ alpha: 2, beta: 2, null: 2 });
  });
});

describe('a source filter is one number', () => {
  it('the list filtered by source totals what the repository filter counts for that source, and the two add up', () => {
    // the first two sessions stand in for CLI sessions until the CLI ingest writes them: both read only the column
    const all = listSessions(db, { window: 'all', children: '0', limit: 100 });
    const cliIds = all.sessions.slice(0, 2).map((x) => x.id);
    db.prepare(`UPDATE sessions SET source = 'cli' WHERE id IN (SELECT value FROM json_each(?))`).run(JSON.stringify(cliIds));
    try {
      const per = (source: 'cli' | 'vscode') => ({
        list: listSessions(db, { window: 'all', children: '0', limit: 100, source }).total,
        repositories: listRepositories(db, { window: 'all', source }).repositories.reduce((n, r) => n + r.sessions, 0),
      });
      expect(per('cli')).toEqual({ list: 2, repositories: 2 });
      expect(per('vscode')).toEqual({ list: all.total - 2, repositories: all.total - 2 });
    } finally {
      db.prepare(`UPDATE sessions SET source = 'vscode'`).run();
    }
  });
});

describe('the event count of a session is one number', () => {
  it('the sessions list, the session header and the search result all show the jq count', () => {
    const list = listSessions(db, { window: 'all', children: '0', limit: 100 });
    const search = searchSessions(db, SearchQuery.parse({ q: 'zebrafish', depth: 'all', perGroup: 100, limit: 100 }));
    const found = new Map(search.groups.flatMap((g) => g.sessions).map((s) => [s.id, s.eventCount]));
    const views = list.sessions.map((s) => ({
      id: s.id,
      jq: jqOf(s.id),
      list: s.eventCount,
      header: getSessionDetail(db, s.id)!.eventCount,
      search: found.get(s.id),
    }));
    for (const v of views) expect(v, v.id).toEqual({ id: v.id, jq: v.jq, list: v.jq, header: v.jq, search: v.jq });
    // The figures are real: sA has session_start, discovery, 3 requests of 10 entries (a user message, two
    // iterations of turn_start, llm_request, tool_call, turn_end, a response), a child ref and 3 child entries.
    expect(views.find((v) => v.id === 'sA')!.jq).toBe(2 + 3 * 10 + 1 + 3);
  });

  it('a child session in the header counts its own log', () => {
    const sA = getSessionDetail(db, 'sA')!;
    expect(sA.children.map((c) => c.eventCount)).toEqual([3]);
    expect(getSessionDetail(db, sA.children[0].id)!.eventCount).toBe(3);
  });

  it('the sessions add up to the index total', () => {
    const list = listSessions(db, { window: 'all', children: '0', limit: 100 });
    expect(list.sessions.reduce((n, s) => n + s.eventCount, 0)).toBe(indexTotals(db).events);
    expect(indexTotals(db).events).toBe(jqEventCount(tree.logFiles));
  });
});

describe('the file count of the index is one number', () => {
  it('indexTotals: the log files on disk, companions apart', () => {
    expect(tree.logFiles).toHaveLength(11);
    expect(indexTotals(db)).toMatchObject({ files: tree.logFiles.length, companions: tree.companionFiles.length, sessions: 6 });
  });

  it('/api/health, the serve banner and `index` show the same figures', async () => {
    const t = indexTotals(db);
    const health = getHealth(testContext(db, dbPath));
    expect(health.workspaces).toBe(2); // alpha and beta: the global and profile roots are not workspaces
    expect({ files: health.files, companions: health.companions, sessions: health.sessions, events: health.events }).toEqual({
      files: t.files,
      companions: t.companions,
      sessions: t.sessions,
      events: t.events,
    });
    expect(backfillBanner(t, 1_000_000, 2000)).toBe(
      `indexed ${t.files} log files (+${t.companions} companions), ${t.sessions} sessions, ${t.events} events, 1.0 MB in 2.0 s; watching for changes`,
    );
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runIndex(parseOptions(['index', '--logs', tree.userDataDir, '--db', path.join(dir, 'cli.db'), '--json']))).toBe(0);
    } finally {
      write.mockRestore();
      err.mockRestore();
    }
    expect(JSON.parse(out.join(''))).toMatchObject({ files: t.files, companions: t.companions, sessions: t.sessions, events: t.events });
  });
});

describe('Copilot CLI sessions beside VS Code ones (issue 20)', () => {
  it('list, header, search, index totals, health and `index` agree, and a CLI session counts its envelope-valid lines', async () => {
    const { cliTree, MAIN, CRASHED, DETACHED } = await import('../ingest/cli/cli-fixture');
    const { isCliEnvelope } = await import('../ingest/cli/normalize-cli');
    const { fixtureDb, line } = await import('../test-support/fixture-db');
    const fx = await fixtureDb(
      { 'vs1/main.jsonl': line({ v: 1, ts: T, sid: 'vs1', type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'the VS Code side' } }) + 'garbage\n' },
      { cli: cliTree() },
    );
    try {
      const envelopeLines = (id: string) =>
        fs
          .readFileSync(path.join(fx.sessionStateDir, id, 'events.jsonl'), 'utf8')
          .split('\n')
          .slice(0, -1) // the last piece has no newline: a line still being written
          .filter((l) => {
            try {
              return isCliEnvelope(JSON.parse(l) as Record<string, unknown>);
            } catch {
              return false;
            }
          }).length;
      const want: Record<string, number> = { vs1: 1, [MAIN]: envelopeLines(MAIN), [CRASHED]: envelopeLines(CRASHED), [DETACHED]: envelopeLines(DETACHED) };
      expect(want).toEqual({ vs1: 1, [MAIN]: 28, [CRASHED]: 9, [DETACHED]: 2 });
      const list = listSessions(fx.db, { window: 'all', children: '0', limit: 100 });
      const search = searchSessions(fx.db, SearchQuery.parse({ q: 'the', depth: 'all', perGroup: 100, limit: 100 }));
      const found = new Map(search.groups.flatMap((g) => g.sessions).map((s) => [s.id, s.eventCount]));
      for (const s of list.sessions) {
        expect({ id: s.id, list: s.eventCount, header: getSessionDetail(fx.db, s.id)!.eventCount, search: found.get(s.id) }).toEqual({
          id: s.id,
          list: want[s.id],
          header: want[s.id],
          search: want[s.id],
        });
      }
      const t = indexTotals(fx.db);
      const total = Object.values(want).reduce((a, b) => a + b, 0);
      // the three events.jsonl and the VS Code main.jsonl; workspace.yaml and vscode.metadata.json are companions
      expect(t).toMatchObject({ files: 4, companions: 3, sessions: 4, events: total });
      const health = getHealth(testContext(fx.db, fx.dbPath));
      expect({ files: health.files, companions: health.companions, sessions: health.sessions, events: health.events }).toEqual({ files: 4, companions: 3, sessions: 4, events: total });
      // the session-state folder is no workspace (its sessions name their own folders); its problems are the bad lines
      expect(health.workspaces).toBe(1);
      expect(health.problems.filter((p) => p.path.includes('session-state')).map((p) => [p.kind, p.lineNo, p.reason])).toEqual([
        ['bad_line', 30, 'a CLI line whose "data" is not an object'],
        ['bad_line', 29, 'not JSON'],
      ]);
      const out: string[] = [];
      const write = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
      const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
      try {
        expect(await runIndex(parseOptions(['index', '--logs', path.join(fx.root, 'Code'), '--copilot-home', path.join(fx.root, '.copilot'), '--db', path.join(fx.root, 'cli.db'), '--json']))).toBe(0);
      } finally {
        write.mockRestore();
        err.mockRestore();
      }
      expect(JSON.parse(out.join(''))).toMatchObject({ files: 4, companions: 3, sessions: 4, events: total });
    } finally {
      fx.cleanup();
    }
  });
});
