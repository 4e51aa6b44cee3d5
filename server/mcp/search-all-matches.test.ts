import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { FIRST_PAGE_LIMITS } from '../search/event-hits';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { createChronoscopeMcp, type ChronoscopeMcp } from './mcp-server';

// search_sessions reads the first matches of a common word (FIRST_PAGE_LIMITS), newest sessions first. Here every one
// of those first matches is in a newer session of ws1, and ws2's only match comes after them: the first page finds
// nothing of ws2 and says its totals are not exact, and an agent had no way to read further (the dashboard's "Search
// all matches", the command line's --depth all). A repo: filter reads only its sessions (session-scope.ts).
const NOW = Date.now();
const NEWER = 'aaaaaaaa-0000-4000-8000-0000000000a1';
const OLDER = 'bbbbbbbb-0000-4000-8000-0000000000b2';
const id = (n: number) => n.toString(16).padStart(16, '0');
const MATCHES = FIRST_PAGE_LIMITS.maxHits + 10;

let fx: FixtureDb;
let mcp: ChronoscopeMcp;
let client: Client;

beforeAll(async () => {
  let newer = '';
  for (let i = 1; i <= MATCHES; i++) {
    newer += line({ ts: NOW - 3_600_000 + i, dur: 5, sid: NEWER, type: 'tool_call', name: 'read_file', spanId: id(i), status: 'ok', attrs: { args: `{"filePath":"src/zorbling-${i}.ts"}` } });
  }
  const older = `ws2:${OLDER}/main.jsonl`;
  fx = await fixtureDb(
    {
      [`${NEWER}/main.jsonl`]: newer,
      [older]: line({ ts: NOW - 86_400_000, dur: 5, sid: OLDER, type: 'tool_call', name: 'read_file', spanId: id(1), status: 'ok', attrs: { args: '{"filePath":"lib/zorbling.ts"}' } }),
    },
    // last written a day ago: the backfill gives it its id after the newer session's
    { mtimes: { [older]: NOW - 86_400_000 } },
  );
  mcp = createChronoscopeMcp({ db: openReadDb(fx.dbPath), dbPath: fx.dbPath, port: 7311 });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  fx?.cleanup();
});

const search = async (args: Record<string, unknown>) => {
  const r = (await client.callTool({ name: 'search_sessions', arguments: args })) as CallToolResult;
  expect(r.isError ?? false).toBe(false);
  return r.structuredContent as Record<string, unknown>;
};

describe('search_sessions past the first matches', () => {
  it('says how many matches its first page read, and all_matches reads every one', async () => {
    const sessions = (r: Record<string, unknown>) => (r.groups as { sessions: { session_id: string }[] }[]).flatMap((g) => g.sessions.map((s) => s.session_id));
    const first = await search({ query: 'zorbling' });
    expect(first).toMatchObject({ sessions_found: 1, totals_exact: false, scanned_events: FIRST_PAGE_LIMITS.maxHits });
    expect(sessions(first)).toEqual([NEWER]);
    const all = await search({ query: 'zorbling', all_matches: true });
    expect(all).toMatchObject({ sessions_found: 2, totals_exact: true, scanned_events: MATCHES + 1 });
    expect(sessions(all).sort()).toEqual([NEWER, OLDER].sort());
  });

  it('reads only the sessions of a repo: filter, whatever the newer matches elsewhere', async () => {
    const first = await search({ query: 'zorbling', repo: 'ws2' });
    // one event read, ws2's, and one path: the paths' read (6,011 hold the word, past SIDE_CAP) is narrowed too
    expect(first).toMatchObject({ sessions_found: 1, totals_exact: true, scanned_events: 1 });
  });
});
