import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReadDb } from '../db/open';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { sessionEventCounts } from './session-events';

// A session's count is its log lines and its child logs' (at any depth), summed once per database state and kept
// for the next page that names the same family: the reader must see a commit by the ingest's connection at once.
const T = Date.UTC(2026, 10, 20);
const P = '0f6c8a52-1111-4222-8333-944445555666';
const C = '7a1d0c33-2222-4333-8444-a55556666777';
const ev = (n: number, type = 'tool_call', sid = P) => line({ ts: T + n, dur: 5, sid, type, name: type, spanId: String(n).padStart(16, '0'), status: 'ok', attrs: {} });

let fx: FixtureDb;
let reader: Database.Database;
beforeEach(async () => {
  fx = await fixtureDb({ [`${P}/main.jsonl`]: ev(1, 'user_message') + ev(2) + ev(3), [`${P}/runSubagent-x-${C}.jsonl`]: ev(1, 'tool_call', C) + ev(2, 'tool_call', C) }, { mtimeMs: T });
  reader = openReadDb(fx.dbPath);
});
afterEach(() => {
  reader.close();
  fx.cleanup();
});

describe('sessionEventCounts', () => {
  it("counts a session's own lines and its children's, 0 for an id it does not know, and sees the next commit", async () => {
    expect(reader.prepare('SELECT parent_id FROM sessions WHERE id = ?').pluck().get(C)).toBe(P);
    expect(sessionEventCounts(reader, [P, C, 'nope'])).toEqual(new Map([[P, 5], [C, 2], ['nope', 0]]));
    // asked again in the same state: the same figures (kept), in the order asked, repeats once
    expect([...sessionEventCounts(reader, [C, P, P])]).toEqual([[C, 2], [P, 5]]);
    fs.appendFileSync(path.join(fx.logsDir(), P, `runSubagent-x-${C}.jsonl`), ev(3, 'tool_call', C) + ev(4, 'tool_call', C));
    await fx.reindex();
    expect(sessionEventCounts(reader, [P, C])).toEqual(new Map([[P, 7], [C, 4]]));
  });
});
