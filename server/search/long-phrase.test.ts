import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchQuery, type SearchResponse } from '../../shared/api/search';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { UNLIMITED, planScan, scanEventHits } from './event-hits';
import { LONG_TERM_CHARS, MAX_PIECES, PIECE_CHARS, selectivePieces } from './fts-match';
import { parseSearch, searchSessions } from './search-sessions';

// Issue 14.6: a 2,000-character phrase was 2,000 trigram lookups. Long terms are now looked up by a few pieces
// and verified against the whole text; these cases pin that the answer stays exactly what grep would say.

/** A paragraph of code-like text, different for every seed (so that each session's text is its own). */
function prose(seed: number, chars: number): string {
  const words = ['retry', 'backoff', 'uploader', 'timeout', 'socket', 'flushQueue', 'const', 'await', 'return', 'Promise<void>', '=>', '{', '}', 'if', '(err)'];
  let s = seed;
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const w = `${words[s % words.length]}${s % 7 === 0 ? s % 1000 : ''}`;
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ').slice(0, chars).replace(/ $/, '.');
}

// 1,980 characters: a query holds 2,000, and `uploader -"…"` must fit too.
const PHRASE = prose(1, 1980);
// Every piece the index is asked for, and nothing else of the phrase: a candidate that verification must drop.
const DECOY = selectivePieces(PHRASE).join(' … ');
// A line over MAX_PARSED_LINE (snippets read a window of it; verification must read it whole), the phrase within
// the first MAX_INDEXED_CHARS (what the indexer indexes of it).
const BIG_RESULT = `${'x'.repeat(200_000)} ${prose(3, 3000)} ${'y'.repeat(1_100_000)}`;

const sid = (n: number) => `long-${n}`;
function session(n: number, toolResult: string, ts = 1_700_000_000_000 + n * 1000): string {
  const id = sid(n);
  return (
    line({ v: 1, ts, sid: id, type: 'session_start', name: 'session_start', spanId: `session-start-${id}`, status: 'ok', attrs: {} }) +
    line({ ts: ts + 1, sid: id, type: 'user_message', name: 'user_message', spanId: '0000000000000001', status: 'ok', attrs: { content: 'look at the uploader' } }) +
    line({ ts: ts + 2, dur: 5, sid: id, type: 'tool_call', name: 'read_file', spanId: '0000000000000002', parentSpanId: '0000000000000001', status: 'ok', attrs: { args: '{}', result: toolResult } })
  );
}

let fx: FixtureDb;
beforeAll(async () => {
  fx = await fixtureDb({
    // the phrase, with its whitespace as newlines and indentation, and in upper case: both fold away
    [`${sid(1)}/main.jsonl`]: session(1, `before\n  ${PHRASE.toUpperCase().replace(/ /g, '\n    ')}\nafter`),
    [`${sid(2)}/main.jsonl`]: session(2, `retry ${DECOY}`),
    [`${sid(3)}/main.jsonl`]: session(3, BIG_RESULT),
    // Copilot cut the attribute at 5,000 characters: the phrase before the cut is there, the rest is not
    [`${sid(4)}/main.jsonl`]: session(4, `${prose(4, 4900)}[truncated]`),
    [`${sid(5)}/main.jsonl`]: session(5, `retry ${PHRASE} retry`),
  });
});
afterAll(() => fx.cleanup());

function search(q: string, depth: 'first' | 'all' = 'first'): SearchResponse {
  return searchSessions(fx.db, SearchQuery.parse({ q, depth }));
}
const ids = (r: SearchResponse) => r.groups.flatMap((g) => g.sessions.map((s) => s.id)).sort();
const phrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe('long phrases: a few pieces looked up, every candidate verified', () => {
  it('the fixture is what it says: the phrase is long, and the decoy holds every piece but not the phrase', () => {
    expect(PHRASE.length).toBe(1980);
    expect(PHRASE.length).toBeGreaterThan(LONG_TERM_CHARS);
    for (const p of selectivePieces(PHRASE)) expect(DECOY).toContain(p);
    expect(DECOY.includes(PHRASE)).toBe(false);
  });

  it('asks the index for a few pieces, not one trigram per character (1,978 lookups before)', () => {
    const match = planScan(parseSearch(phrase(PHRASE)))!.match;
    const pieces = [...match.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]);
    expect(pieces.length).toBeLessThanOrEqual(MAX_PIECES);
    expect(pieces.every((p) => p.length === PIECE_CHARS)).toBe(true);
    expect(match).toBe(`(${selectivePieces(PHRASE).map(phrase).join(' AND ')})`);
  });

  it('finds a 1,980-character phrase across folded whitespace and case, and not in the decoy', () => {
    const r = search(phrase(PHRASE));
    expect(ids(r)).toEqual([sid(1), sid(5)]);
    expect(r.totals).toEqual({ sessions: 2, events: 2, exact: true, scannedEvents: 3 });
  });

  it('does not find a phrase that is not there (one character changed in the middle)', () => {
    const altered = `${PHRASE.slice(0, 1000)}#${PHRASE.slice(1001)}`;
    const r = search(phrase(altered));
    expect(ids(r)).toEqual([]);
    expect(r.totals.exact).toBe(true);
  });

  it('finds a long phrase deep in a line over 1 MB, and the part of a cut attribute before the cut', () => {
    expect(ids(search(phrase(prose(3, 1500))))).toEqual([sid(3)]);
    expect(ids(search(phrase(prose(4, 4900).slice(3000, 4900))))).toEqual([sid(4)]);
    // what Copilot cut off was never written: a phrase running past the cut is not found
    expect(ids(search(phrase(prose(4, 5200).slice(4000))))).toEqual([]);
  });

  it('excludes events by a long phrase exactly (its pieces alone would exclude the decoy too)', () => {
    // `retry` is in every tool result but session 1's (upper case: RETRY, found too); the phrase in 1's and 5's.
    expect(ids(search('retry'))).toEqual([sid(1), sid(2), sid(3), sid(4), sid(5)]);
    expect(ids(search(`retry -${phrase(PHRASE)}`))).toEqual([sid(2), sid(3), sid(4)]);
  });

  it('stops verifying at the time budget with a partial answer, marked, that a later page completes', () => {
    const q = parseSearch(phrase(PHRASE));
    // Three candidates (sessions 1 and 5, and the decoy); the budget is spent after the first is verified.
    // Which one comes first is the indexing order: whether it counts depends on that, the cut does not.
    const first = scanEventHits(fx.db, q, null, { maxHits: 6000, maxScanned: 30000, maxMs: 0, chunk: 1 });
    expect([first.scanned, first.exhausted]).toEqual([1, false]);
    expect(first.events).toBeLessThanOrEqual(1);
    const rest = scanEventHits(fx.db, q, null, { ...UNLIMITED, chunk: 1 });
    expect([rest.scanned, rest.events, rest.exhausted]).toEqual([3, 2, true]);
    // the response says so: totals are a lower bound
    const r = searchSessions(fx.db, SearchQuery.parse({ q: phrase(PHRASE) }), Date.now(), { maxHits: 6000, maxScanned: 30000, maxMs: 0, chunk: 1 });
    expect(r.totals).toEqual({ sessions: first.events, events: first.events, exact: false, scannedEvents: 1 });
  });

  it('gives the same answer on a first page and with depth=all, and highlights the whole phrase', () => {
    const first = search(phrase(PHRASE));
    const all = search(phrase(PHRASE), 'all');
    expect(ids(all)).toEqual(ids(first));
    const hit = first.groups.flatMap((g) => g.sessions).find((s) => s.id === sid(5))!.hits[0];
    expect(hit.snippet!.highlights.length).toBe(1);
  });
});
