import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanListQuery } from '../../shared/api';
import { SearchQuery } from '../../shared/api/search';
import { ApiError } from '../http/errors';
import { searchSessions } from '../search/search-sessions';
import { listSpans } from '../spans/list-spans';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';
import { encodeJson } from '../http/json-bytes';
import { ReadPool } from './read-pool';

const parsed = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8'));

// The read worker answers exactly what the same call answers in process, keeps the one error body's codes, and
// a worker that dies fails only the searches it held.
let fx: FixtureDb;
let pool: ReadPool;
const NOW = 1_800_000_000_000;

beforeAll(async () => {
  const ev = (sid: string, n: number, content: string) =>
    line({ ts: NOW - 3600_000 + n, dur: 0, sid, type: 'user_message', name: 'user_message', spanId: `000000000000000${n}`, status: 'ok', attrs: { content } });
  fx = await fixtureDb({
    'p1/main.jsonl': ev('p1', 1, 'the retry loop never resets its timeout'),
    'p2/main.jsonl': ev('p2', 1, 'retry with backoff in the uploader'),
  });
  pool = new ReadPool(fx.dbPath);
});
afterAll(async () => {
  await pool.close();
  fx.cleanup();
});

const input = (q: string) => SearchQuery.parse({ q });

describe('ReadPool: searches and span trees in a worker thread', () => {
  it('answers what the in-process search answers', async () => {
    const got = parsed(await pool.run('search', { input: input('retry'), now: NOW }));
    const want = JSON.parse(JSON.stringify(searchSessions(fx.db, input('retry'), NOW)));
    expect({ ...got, tookMs: 0 }).toEqual({ ...want, tookMs: 0 });
    expect(got.totals).toEqual({ sessions: 2, events: 2, exact: true, scannedEvents: 2 });
  });

  it('answers a span window with the very bytes c.json sends for listSpans, handed over whole', async () => {
    const query = SpanListQuery.parse({ limit: 50 });
    const bytes = await pool.run('spans', { sessionId: 'p1', query });
    expect(Buffer.from(bytes).equals(Buffer.from(encodeJson(listSpans(fx.db, 'p1', query))))).toBe(true);
    // transferred, not copied into a pool slab: the answer owns its memory
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
  });

  it('keeps a refusal a 400 with its code and message', async () => {
    const err = await pool.run('search', { input: input('-retry'), now: NOW }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).status, (err as ApiError).code, (err as ApiError).message]).toEqual([400, 'bad_query', 'add a word to search for: "-retry" only excludes.']);
  });

  // The exports held the event loop: the OTLP encoding of the bench archive's second family 1.8 s (for a 413), the
  // Markdown of its largest 1.8 s. In the worker they answer what they answer in process, refusals included.
  it('exports: the OTLP document (its packages loaded on the first one) and Markdown, as in process; 404 and 413 kept', async () => {
    const { exportedDocument } = await import('../export/export-fixture');
    const { exportMarkdown } = await import('../export/markdown');
    const otlp = parsed(await pool.run('otlp', { sessionId: 'p1' }));
    const want = exportedDocument(fx.db, 'p1')!;
    expect({ ...otlp, copilotChat: { ...otlp.copilotChat, exportedAt: '' } }).toEqual({ ...want, copilotChat: { ...want.copilotChat, exportedAt: '' } });
    expect(parsed(await pool.run('markdown', { sessionId: 'p2', eventId: undefined, maxChars: undefined }))).toEqual({ text: exportMarkdown(fx.db, 'p2') });
    const missing = await pool.run('otlp', { sessionId: 'nope' }).catch((e: unknown) => e);
    expect([(missing as ApiError).status, (missing as ApiError).message]).toEqual([404, 'session nope was not found']);
  });

  it('fails the searches a dead worker held, and starts another for the next', async () => {
    const workers = (pool as unknown as { workers: ({ terminate(): Promise<number> } | null)[] }).workers;
    const pending = pool.run('search', { input: input('backoff'), now: NOW }).catch((e: unknown) => e);
    await workers[0]!.terminate();
    const failed = await pending;
    // terminate() can lose the race with a fast answer: either outcome is one clear result, never a hang
    if (failed instanceof Error) expect(failed.message).toMatch(/^the read worker stopped/);
    else expect(parsed(failed as Uint8Array).totals.sessions).toBe(1);
    const next = parsed(await pool.run('search', { input: input('backoff'), now: NOW }));
    expect(next.totals.sessions).toBe(1);
  });

  it('restart() (the index was rebuilt in a new file) leaves the next request to a fresh worker', async () => {
    const workers = (pool as unknown as { workers: (object | null)[] }).workers;
    const before = workers[0];
    await pool.restart();
    expect(workers[0]).toBe(null);
    expect(parsed(await pool.run('search', { input: input('retry'), now: NOW })).totals.sessions).toBe(2);
    expect(workers[0]).not.toBe(before);
  });
});
