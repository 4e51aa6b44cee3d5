import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { ftsSegments } from '../test-support/fts-merging';

let fx: FixtureDb | null = null;
afterEach(() => {
  fx?.cleanup();
  fx = null;
});

const SPAN = (n: number) => n.toString(16).padStart(16, '0');

/** A session as the writer numbers it: span ids from 0000000000000001 again, so they collide across sessions. */
function session(sid: string, words: string): string {
  const t0 = Date.now() - 60_000;
  let out = line({ ts: t0, dur: 0, sid, type: 'session_start', name: 'session_start', spanId: SPAN(1), status: 'ok', attrs: { copilotVersion: '0.30.0' } });
  for (let i = 0; i < 40; i++) {
    out += line({ ts: t0 + i, dur: 5, sid, type: 'tool_call', name: 'read_file', spanId: SPAN(2 + i), status: 'ok', attrs: { args: `{"filePath":"/src/${words}-${i}.ts"}`, result: `${words} line ${i}` } });
  }
  return out;
}

describe('the trigram index during a backfill', () => {
  it('gets its pending terms written once per commit group, not once per companion file', async () => {
    // An upsert (ON CONFLICT, RETURNING) opens a statement journal; SQLite then takes a savepoint on every FTS5
    // table of the transaction, and FTS5 writes its pending terms out as a segment at each savepoint.
    const tools = JSON.stringify({ content: JSON.stringify([{ name: 'read_file', description: 'reads a file' }]) });
    fx = await fixtureDb({
      'a1/main.jsonl': session('a1', 'alpha'),
      'a1/system_prompt_0.json': JSON.stringify({ content: 'You are A' }),
      'a1/tools_0.json': tools,
      'b2/main.jsonl':
        session('b2', 'bravo') +
        line({ ts: Date.now() - 1000, dur: 0, sid: 'b2', type: 'child_session_ref', name: 'runSubagent-explore', spanId: 'child-ref-k9', parentSpanId: SPAN(3), status: 'ok', attrs: { childSessionId: 'k9', childLogFile: 'runSubagent-explore-k9.jsonl', label: 'runSubagent-explore' } }),
      // a child log: its refresh derives a lineage edge (an upsert) inside the same group
      'b2/runSubagent-explore-k9.jsonl': session('k9', 'kilo'),
      'b2/system_prompt_0.json': JSON.stringify({ content: 'You are B' }),
      'b2/tools_0.json': tools,
      'c3/main.jsonl': session('c3', 'charlie'),
      'c3/system_prompt_0.json': JSON.stringify({ content: 'You are C' }),
    });
    const { db } = fx;
    expect((db.prepare('SELECT count(*) n FROM companions').get() as { n: number }).n).toBe(5);
    expect((db.prepare('SELECT count(*) n FROM events').get() as { n: number }).n).toBe(165);
    expect(db.prepare("SELECT parent_id FROM session_edges WHERE child_id = 'k9'").get()).toEqual({ parent_id: 'b2' });
    // the fixture's files are all of this week: one group, committed when the week's part is done
    expect(ftsSegments(db, 'event_text')).toBe(1);
    expect((db.prepare("SELECT count(*) n FROM event_text WHERE event_text MATCH '\"bravo line 7\"'").get() as { n: number }).n).toBe(1);
  });
});
