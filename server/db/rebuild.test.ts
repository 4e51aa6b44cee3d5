// SCHEMA_VERSION changes: derived tables are dropped and refilled from the archive, exactly once.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IngestStore } from '../ingest/store';
import { startServer } from '../serve';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { rebuildDerived } from './rebuild';
import { derivedNeedRebuild, ensureSchema, setMeta } from './schema';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const ev = (sid: string, i: number) =>
  line({ ts: 1775000000000 + i, dur: 10, sid, type: 'tool_call', name: 'read_file', spanId: `${sid}-${i}`, status: 'ok', attrs: { args: '{"filePath":"/w/a.ts"}' } });
const facts = (f: FixtureDb) => f.db.prepare('SELECT id, event_count, (SELECT count(*) FROM events) events, (SELECT count(*) FROM session_files) files FROM sessions ORDER BY id').all();

describe('rebuilding the derived tables', () => {
  it('refills them from the archive with the same facts, and twice in a row does not double them', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 0) + ev('s1', 1), 's2/main.jsonl': ev('s2', 0) });
    const before = facts(fx);
    setMeta(fx.db, 'schema_version', '0');
    expect(ensureSchema(fx.db)).toBe(true);
    expect(derivedNeedRebuild(fx.db)).toBe(true);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(facts(fx)).toEqual(before);
    expect(derivedNeedRebuild(fx.db)).toBe(false);
  });

  it('an index of version 17 gets events_cli_spans as an OR of its types (its IN list cost every INSERT and served no lookup)', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 0) + ev('s1', 1) });
    const before = facts(fx);
    const condition = () => (fx!.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events_cli_spans'").get() as { sql: string }).sql.replace(/\s+/g, ' ');
    fx.db.exec('DROP INDEX events_cli_spans');
    fx.db.exec("CREATE INDEX events_cli_spans ON events (session_num, span_id) WHERE type IN ('tool.execution_start', 'subagent.started', 'hook.start', 'turn_start')");
    setMeta(fx.db, 'schema_version', '17');
    expect(ensureSchema(fx.db)).toBe(true);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(condition()).toBe(
      "CREATE INDEX events_cli_spans ON events (session_num, span_id) WHERE type = 'tool.execution_start' OR type = 'subagent.started' OR type = 'hook.start' OR type = 'turn_start'",
    );
    expect(facts(fx)).toEqual(before);
  });

  it('a line archived as an event that no longer is one (an object without a type) becomes a bad line, and counts follow', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 0) + line({ note: 'no type' }) + ev('s1', 1) });
    const counts = () => fx!.db.prepare("SELECT events, bad_lines bad FROM files").get();
    expect(counts()).toEqual({ events: 2, bad: 1 });
    // An archive written before the rule: the typeless line stored as an event.
    fx.db.prepare('UPDATE lines SET kind = 0, reason = NULL WHERE kind = 1').run();
    fx.db.prepare('UPDATE files SET events = 3, bad_lines = 0').run();
    setMeta(fx.db, 'schema_version', '0');
    ensureSchema(fx.db);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(counts()).toEqual({ events: 2, bad: 1 });
    expect(fx.db.prepare('SELECT line_no, kind, reason FROM lines WHERE kind > 0').all()).toEqual([{ line_no: 2, kind: 1, reason: 'a JSON object with no "type"' }]);
    expect((fx.db.prepare("SELECT count(*) n FROM events").get() as { n: number }).n).toBe(2);
  });

  it('the server refills them when its setup connection found the version changed (the worker must still rebuild)', async () => {
    fx = await fixtureDb({ 's1/main.jsonl': ev('s1', 0) + ev('s1', 1) });
    const before = facts(fx);
    setMeta(fx.db, 'schema_version', '0');
    fx.db.close();
    const server = await startServer({ dbPath: fx.dbPath, roots: [path.join(fx.root, 'Code')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 't' });
    await server.backfilled;
    const res = (await (await fetch(server.url + '/api/sessions')).json()) as { sessions: { id: string; eventCount: number }[] };
    expect(res.sessions.map((s) => [s.id, s.eventCount])).toEqual([['s1', 2]]);
    await server.close();
    fx.db = (await import('./open')).openWriteDb(fx.dbPath);
    expect(facts(fx)).toEqual(before);
  });

  it('an index built by the (spanId, type) replay rule is corrected: rebuilt, no false replays, the copies rebuilt too', async () => {
    const u = (sid: string, content: string, ts: number) => line({ ts, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content } });
    const copy = (sid: string) => line({ ts: 1775000000500, dur: 0, sid, type: 'discovery', name: 'Load Skills', spanId: '0000000000000002', status: 'ok', attrs: { details: 'loaded: []', source: 'core' } });
    fx = await fixtureDb({ 's1/main.jsonl': u('s1', 'one', 1775000000000) + copy('s1'), 's2/main.jsonl': u('s2', 'two', 1775000001000) + copy('s2') });
    // what the old rule left behind: the second session's prompt marked a replay
    fx.db.prepare("UPDATE events SET dup = 1 WHERE type = 'user_message' AND id = (SELECT max(id) FROM events WHERE type = 'user_message')").run();
    setMeta(fx.db, 'schema_version', '12');
    expect(ensureSchema(fx.db)).toBe(true);
    rebuildDerived(fx.db, new IngestStore(fx.db));
    expect(fx.db.prepare('SELECT type, dup, count(*) n FROM events GROUP BY type, dup ORDER BY type, dup').all()).toEqual([
      { type: 'discovery', dup: 0, n: 1 },
      { type: 'discovery', dup: 1, n: 1 },
      { type: 'user_message', dup: 0, n: 2 },
    ]);
  });
});
