import { afterEach, describe, expect, it } from 'vitest';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { processLine } from './process-line';
import { IngestStore } from './store';
import { cliLines, T0, uuid } from './cli/cli-fixture';

let fx: FixtureDb | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

const T = 1775000000000;
// Span ids are per-session counters (FORMAT §10.2): both sessions use the same ones, and a reload of s1 reuses 1.
const ev = (sid: string, i: number, type: string, spanId: string, parentSpanId: string | null, attrs: Record<string, unknown>) =>
  line({ ts: T + i, dur: 1, sid, type, name: type, spanId, ...(parentSpanId ? { parentSpanId } : {}), status: 'ok', attrs });
const response = (text: string) => JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: text }] }]);

/** Batches of two sessions written alternately, as a live server writes two busy sessions: [session, lines]. */
const batches: [string, string[]][] = [
  ['s1', [ev('s1', 1, 'user_message', '0000000000000001', null, { content: 'first question' })]],
  ['s2', [ev('s2', 2, 'user_message', '0000000000000001', null, { content: 'other question' })]],
  // s1's answer names its request by a span id written in an earlier batch: the state must come back from the table
  ['s1', [ev('s1', 3, 'agent_response', '0000000000000002', '0000000000000001', { response: response('first answer') })]],
  ['s2', [ev('s2', 4, 'agent_response', '0000000000000003', '0000000000000009', { response: response('subagent answer, no request') })]],
  // a reload of s1: span 1 again, for a new request; then the answer to it
  ['s1', [ev('s1', 5, 'user_message', '0000000000000001', null, { content: 'after the reload' })]],
  ['s2', [ev('s2', 6, 'agent_response', '0000000000000004', '0000000000000009', { response: response('more of it') })]],
  ['s1', [ev('s1', 7, 'agent_response', '0000000000000002', '0000000000000001', { response: response('answer after the reload') })]],
];

function writeAll(store: IngestStore) {
  const files = new Map(['s1', 's2'].map((s) => [s, { row: store.createFile({ path: `/logs/${s}/main.jsonl`, workspace_dir: null, folder_session_id: s, session_id: s, kind: 'main', label: null }), offset: 0, line: 1 }]));
  for (const [sid, lines] of batches) {
    const f = files.get(sid)!;
    const processed = lines.map((text) => {
      const p = processLine({ bytes: Buffer.from(text.trimEnd()), byteOffset: f.offset, tooLong: false });
      f.offset += text.length;
      return p;
    });
    const lineNos = lines.map((_, i) => f.line + i);
    f.line += lines.length;
    store.writeBatch(f.row, processed, { dev: 1, ino: 1, size: f.offset, mtime: T, offset: f.offset, headHash: 'h', generation: 0, nextLine: f.line, reconciling: false }, lineNos);
  }
  return store.db.prepare('SELECT session_id, turn_index, user_message, assistant_response, span_id FROM turns ORDER BY session_id, turn_index').all();
}

describe('the store keeps the turn state of a bounded number of sessions (issue 19.3)', () => {
  it('a session dropped from the cache and written again places its turns as one kept in memory does', async () => {
    fx = await fixtureDb({});
    const kept = writeAll(new IngestStore(fx.db));
    fx.cleanup();
    fx = await fixtureDb({});
    const bounded = new IngestStore(fx.db, undefined, 1);
    const dropped = writeAll(bounded);
    expect([bounded.cachedSessions, dropped]).toEqual([1, kept]);
    expect(kept).toEqual([
      { session_id: 's1', turn_index: 0, user_message: 'first question', assistant_response: 'first answer', span_id: '0000000000000001' },
      { session_id: 's1', turn_index: 1, user_message: 'after the reload', assistant_response: 'answer after the reload', span_id: '0000000000000001' },
      // a response naming no known request answers the pending one (Chronicle), from the table as from memory
      { session_id: 's2', turn_index: 0, user_message: 'other question', assistant_response: 'subagent answer, no request\nmore of it', span_id: '0000000000000001' },
    ]);
  });
});

describe('the CLI linker keeps a bounded number of sessions', () => {
  it('a session dropped past the bound is replayed from the archive on its next line, and linked as if it were kept', async () => {
    // Each agent's current user message and model call are memory only: a model call with no parent hangs under them.
    const a = cliLines(uuid(1, 'a'), [
      { type: 'user.message', data: { content: 'question a' }, at: 0 },
      { type: 'assistant.turn_start', data: { turnId: '0' }, at: 1 },
      { type: 'assistant.message', data: { messageId: 'm1', content: 'answer a', model: 'claude-sonnet-4.5', outputTokens: 3 }, at: 5 },
    ]).trimEnd().split('\n');
    const b = cliLines(uuid(2, 'b'), [
      { type: 'user.message', data: { content: 'question b' }, at: 2 },
      { type: 'assistant.message', data: { messageId: 'm2', content: 'answer b', model: 'claude-sonnet-4.5', outputTokens: 3 }, at: 6 },
    ]).trimEnd().split('\n');
    const order: [number, string][] = [[0, a[0]], [1, b[0]], [0, a[1]], [1, b[1]], [0, a[2]]];
    const write = (store: IngestStore) => {
      const files = [uuid(1, 'a'), uuid(2, 'b')].map((s) => ({ row: store.createFile({ path: `/cli/${s}/events.jsonl`, workspace_dir: null, folder_session_id: s, session_id: s, kind: 'cli', label: null }), offset: 0, line: 1 }));
      for (const [i, text] of order) {
        const f = files[i];
        const p = processLine({ bytes: Buffer.from(text), byteOffset: f.offset, tooLong: false }, 'cli');
        f.offset += text.length + 1;
        store.writeBatch(f.row, [p], { dev: 1, ino: 1, size: f.offset, mtime: T, offset: f.offset, headHash: 'h', generation: 0, nextLine: f.line + 1, reconciling: false }, [f.line++]);
      }
      return store.db.prepare('SELECT session_num, type, span_id, parent_span_id, ts, dur FROM events ORDER BY id').all();
    };
    fx = await fixtureDb({});
    const kept = write(new IngestStore(fx.db));
    fx.cleanup();
    fx = await fixtureDb({});
    const bounded = new IngestStore(fx.db, undefined, 1);
    expect(write(bounded)).toEqual(kept);
    expect([bounded.cachedSessions, bounded.cli.sessions]).toEqual([1, 1]);
    // the model call of session a hangs under its user message, which only the replay of its archived lines knows
    const call = kept.at(-1) as { parent_span_id: string; ts: number; dur: number };
    expect([call.parent_span_id, call.ts]).toEqual([`${uuid(1, 'a').slice(0, 8)}-0000-4000-9000-000000000001`, T0 + 5]);
  });
});
