import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery } from '../../shared/api';
import { notYetSearchableNote } from '../../shared/not-yet-searchable';
import type { AppContext } from '../app-context';
import { openReadDb } from '../db/open';
import { searchProgress } from '../health/health';
import { searchSessionsTool } from '../mcp/tools/search-sessions';
import type { ToolContext } from '../mcp/tool-context';
import { formatSearch } from '../search/format-cli';
import { searchSessions } from '../search/search-sessions';
import { healthRoutes } from '../routes/health';
import { testContext } from '../test-support/test-app';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { indexedThrough, searchDbPath, setSearchMeta } from './search-db';

// While the search file catches up (a refill after an upgrade or a lost file), the newest archived events cannot
// be found: search says how many, the same number health says, on the page, in the CLI and over MCP.

const A = 'aaaaaaaa-0000-4000-8000-00000000000a';
const B = 'bbbbbbbb-0000-4000-8000-00000000000b';
const T = 1_764_000_000_000;
// As the real writer writes: span ids restart at 1 in every session (FORMAT §10), both turn-id forms, a garbage line.
const events = (sid: string, word: string) =>
  line({ ts: T, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: '0000000000000001', status: 'ok', attrs: { copilotVersion: '0.44.0' } }) +
  line({ ts: T + 1, dur: 0, sid, type: 'turn_start', name: 'turn_start:1', spanId: 'turn_start-0000000000000001-1', status: 'ok', attrs: { turnId: 1 } }) +
  '{"type": cut off\n' +
  line({ ts: T + 2, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000002', status: 'ok', attrs: { content: `find ${word} please` } }) +
  line({ ts: T + 3, dur: 0, sid, type: 'turn_start', name: 'turn_start:2', spanId: 'turn-start-0000000000000001-2', status: 'ok', attrs: { turnId: '2' } }) +
  line({ ts: T + 4, dur: 5, sid, type: 'tool_call', name: 'grep_search', spanId: '0000000000000003', parentSpanId: '0000000000000002', status: 'ok', attrs: { args: `{"query":"${word}"}`, result: 'none' } });

let fx: FixtureDb;
let mark: number;
beforeAll(async () => {
  fx = await fixtureDb({ [`${A}/main.jsonl`]: events(A, 'quokkaflux'), [`${B}/main.jsonl`]: events(B, 'quokkaflux') }, { mtimeMs: T });
  const s = new Database(searchDbPath(fx.dbPath));
  mark = indexedThrough(s);
  // the last two archived lines are the last file's turn_start and tool_call: events, not bad lines
  setSearchMeta(s, 'indexed_through', String(mark - 2));
  s.close();
});
afterAll(() => fx.cleanup());

describe('events not yet searchable', () => {
  it('search, health, the CLI and MCP say the same number', async () => {
    const db = openReadDb(fx.dbPath);
    try {
      const r = searchSessions(db, SearchQuery.parse({ q: 'quokkaflux' }));
      expect(r.notYetSearchable).toBe(2);
      expect(searchProgress({ db, dbPath: fx.dbPath } as AppContext)).toEqual({ indexedThrough: mark - 2, eventsBehind: 2 });
      expect(formatSearch('quokkaflux', r, T, false).split('\n')[1]).toBe('Search is catching up: the newest 2 archived events are not searchable yet.');
      const ctx = { db, now: () => T, links: { session: (id: string) => id } } as unknown as ToolContext;
      const mcp = await searchSessionsTool.run(ctx, { query: 'quokkaflux', limit: 10, include_active: false } as never);
      expect(mcp.payload.not_yet_searchable).toBe(2);
    } finally {
      db.close();
    }
  });

  it('is 0 once caught up, and says "or more" past the count cap', () => {
    const s = new Database(searchDbPath(fx.dbPath));
    setSearchMeta(s, 'indexed_through', String(mark));
    s.close();
    const db = openReadDb(fx.dbPath);
    try {
      const r = searchSessions(db, SearchQuery.parse({ q: 'quokkaflux' }));
      expect(r.notYetSearchable).toBe(0);
      expect(formatSearch('quokkaflux', r, T, false)).not.toContain('catching up');
    } finally {
      db.close();
    }
    expect(notYetSearchableNote(1)).toBe('Search is catching up: the newest 1 archived event is not searchable yet.');
    expect(notYetSearchableNote(1_000_000)).toBe('Search is catching up: the newest 1,000,000 or more archived events are not searchable yet.');
  });

  it('one long-lived connection (health) counts again when the mark moves or the archive commits, never a stale number', () => {
    const db = openReadDb(fx.dbPath);
    const s = new Database(searchDbPath(fx.dbPath));
    const lag = () => searchProgress({ db, dbPath: fx.dbPath } as AppContext);
    try {
      setSearchMeta(s, 'indexed_through', String(mark - 2));
      expect([lag(), lag()]).toEqual([{ indexedThrough: mark - 2, eventsBehind: 2 }, { indexedThrough: mark - 2, eventsBehind: 2 }]);
      setSearchMeta(s, 'indexed_through', String(mark - 1)); // the mark moved, the archive did not
      expect(lag()).toEqual({ indexedThrough: mark - 1, eventsBehind: 1 });
      // the archive committed an event past the mark (by the writer's connection), the mark did not move
      const e = fx.db.prepare('SELECT * FROM events WHERE id = ?').get(mark) as Record<string, unknown>;
      fx.db.prepare(`INSERT INTO events (${Object.keys(e).join(', ')}) VALUES (${Object.keys(e).map(() => '?').join(', ')})`).run(...Object.values({ ...e, id: mark + 100 }));
      expect(lag()).toEqual({ indexedThrough: mark - 1, eventsBehind: 2 });
      fx.db.prepare('DELETE FROM events WHERE id = ?').run(mark + 100);
      expect(lag()).toEqual({ indexedThrough: mark - 1, eventsBehind: 1 });
    } finally {
      setSearchMeta(s, 'indexed_through', String(mark));
      s.close();
      db.close();
    }
  });

  it('/api/ready waits for search too: 200 only once the backfill is idle and every archived event is searchable, or search has a problem', async () => {
    const db = openReadDb(fx.dbPath);
    const s = new Database(searchDbPath(fx.dbPath));
    const ctx = testContext(db, fx.dbPath);
    const ready = async () => {
      const r = await healthRoutes(ctx).request('/ready');
      return [r.status, await r.json()];
    };
    try {
      setSearchMeta(s, 'indexed_through', String(mark - 2));
      expect(await ready()).toEqual([503, { ready: false, progress: ctx.status.progress, search: { indexedThrough: mark - 2, eventsBehind: 2 } }]);
      ctx.status.progress = { state: 'running', filesDone: 1, filesTotal: 2, bytesDone: 10, bytesTotal: 20 };
      setSearchMeta(s, 'indexed_through', String(mark));
      expect(await ready()).toEqual([503, { ready: false, progress: ctx.status.progress, search: { indexedThrough: mark, eventsBehind: 0 } }]);
      ctx.status.progress = { state: 'idle', filesDone: 2, filesTotal: 2, bytesDone: 20, bytesTotal: 20 };
      expect(await ready()).toEqual([200, { ready: true }]);
      // a search file that cannot catch up (its problem is in health) does not hold readiness back for ever
      setSearchMeta(s, 'indexed_through', String(mark - 1));
      ctx.status.searchProblem = { fileId: null, path: searchDbPath(fx.dbPath), lineNo: null, byteOffset: null, kind: 'disk_full', reason: 'no space', at: T };
      expect(await ready()).toEqual([200, { ready: true }]);
    } finally {
      setSearchMeta(s, 'indexed_through', String(mark));
      s.close();
      db.close();
    }
  });
});
