import { afterEach, describe, expect, it } from 'vitest';
import { rawLines } from '../db/raw-lines';
import { indexedText } from '../search/indexed-text';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { processLine } from './process-line';
import { BATCH_BYTES } from './tail-file';

let fx: FixtureDb | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

const T = 1775000000000;
const span = (n: number) => n.toString(16).padStart(16, '0');

/**
 * A main log of ~12 batches (past the 4 MB a file is read for before the indexer turns to its queue): tool calls
 * with 1,000-character results, a garbage line and an entry without a type every 500 lines; and a child log.
 */
function bigSession(): { main: string; child: string; badLines: number; lastCall: number } {
  const out: string[] = [line({ ts: T, dur: 0, sid: 's1', type: 'session_start', name: 'session_start', spanId: span(1), status: 'ok', attrs: { copilotVersion: '0.40.0' } })];
  let bytes = out[0].length;
  const push = (l: string) => {
    out.push(l);
    bytes += l.length;
  };
  let badLines = 0;
  let i = 2;
  for (; bytes < 12 * BATCH_BYTES; i++) {
    if (i % 500 === 0) push('{"ts":17750000, "broken\n'), push(`{"ts":${T + i},"attrs":{}}\n`), (badLines += 2);
    push(line({ ts: T + i, dur: i % 7, sid: 's1', type: 'tool_call', name: `tool:read_file`, spanId: span(i), parentSpanId: span(1), status: i % 11 === 0 ? 'error' : 'ok', attrs: { args: JSON.stringify({ filePath: `/repo/src/f${i}.ts` }), result: `line ${i} `.repeat(100) } }));
  }
  const child = [1, 2, 3].map((i) => line({ ts: T + i, dur: 1, sid: 'child-1', type: 'agent_response', name: 'agent_response', spanId: span(i), status: 'ok', attrs: { response: `child answer ${i}` } })).join('');
  return { main: out.join(''), child, badLines, lastCall: i - 1 };
}

describe('tailFile writes a file read in many batches, the next read ahead while one is written', () => {
  it('archives every line once, in order, and derives each event from its own line', async () => {
    const { main, child, badLines, lastCall } = bigSession();
    fx = await fixtureDb({ 's1/main.jsonl': main, 's1/runSubagent-explore-child-1.jsonl': child });
    const fileLines = main.split('\n').slice(0, -1);
    const mainId = (fx.db.prepare("SELECT id FROM files WHERE path LIKE '%main.jsonl'").get() as { id: number }).id;
    const rows = fx.db.prepare('SELECT id, line_no, byte_offset, kind FROM lines WHERE file_id = ? ORDER BY id').all(mainId) as { id: number; line_no: number; byte_offset: number; kind: number }[];
    expect(rows.length).toBe(fileLines.length);
    expect(rows.map((r) => r.line_no)).toEqual(fileLines.map((_, i) => i + 1));
    let offset = 0;
    const offsets = fileLines.map((l) => ((offset += Buffer.byteLength(l) + 1), offset - Buffer.byteLength(l) - 1));
    expect(rows.map((r) => r.byte_offset)).toEqual(offsets);
    const texts = rawLines(fx.db).texts(rows.map((r) => r.id));
    expect(rows.map((r) => texts.get(r.id))).toEqual(fileLines);

    const expected = fileLines.map((l, i) => processLine({ bytes: Buffer.from(l), byteOffset: offsets[i], tooLong: false }));
    expect(rows.map((r) => r.kind)).toEqual(expected.map((p) => p.kind));
    const events = fx.db.prepare('SELECT id, type, name, span_id, status, ts, dur FROM events WHERE file_id = ? ORDER BY id').all(mainId) as Record<string, unknown>[];
    const want = expected.flatMap((p, i) => (p.event ? [{ id: rows[i].id, type: p.event.type, name: p.event.name, span_id: p.event.spanId, status: p.event.status === 'error' ? 1 : 0, ts: p.event.ts, dur: p.event.dur }] : []));
    expect(events).toEqual(want);
    expect(events.length).toBe(fileLines.length - badLines);
    // the search file holds each event's text: one row per event, and a term of the last batch's last line finds it
    const last = expected.at(-1)!;
    expect(indexedText(last.event!)).toContain(`line ${lastCall} line`);
    expect((fx.db.prepare('SELECT count(*) n FROM search.event_text').get() as { n: number }).n).toBe(events.length + 3);
    const lastId = rows.at(-1)!.id;
    const found = fx.db.prepare(`SELECT rowid FROM search.event_text WHERE event_text MATCH ?`).pluck().all(`"${indexedText(last.event!).slice(0, 40)}"`);
    expect(found).toContain(lastId);

    // the child log's session is the sid of its lines, adopted from its first batch
    expect(fx.db.prepare("SELECT session_id, label FROM files WHERE path LIKE '%child-1.jsonl'").get()).toEqual({ session_id: 'child-1', label: 'runSubagent-explore' });
    expect((fx.db.prepare("SELECT count(*) n FROM events e JOIN sessions s ON s.num = e.session_num WHERE s.id = 'child-1'").get() as { n: number }).n).toBe(3);
  });
});
