import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitBackfill, POLL_MS } from './server-process';

let server: http.Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A stand-in server: /api/ready answers 503 `notReadyPolls` times, then 200; every path asked is counted. */
async function fakeServer(notReadyPolls: number): Promise<{ base: string; asked: Map<string, number> }> {
  const asked = new Map<string, number>();
  let polls = 0;
  server = http.createServer((req, res) => {
    asked.set(req.url!, (asked.get(req.url!) ?? 0) + 1);
    if (req.url === '/api/ready') res.writeHead(polls++ < notReadyPolls ? 503 : 200);
    // the first answer of a path computed, the ones after it reused (server/http/response-cache.ts)
    else res.writeHead(200, { 'content-type': 'application/json', 'x-chronoscope-cache': asked.get(req.url!) === 1 ? 'miss' : 'hit' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe('awaitBackfill', () => {
  it('asks every load path at each poll while loading, also when no one takes their times (the 0.25× backfill ran without its load)', async () => {
    const { base, asked } = await fakeServer(3);
    await awaitBackfill(base, performance.now(), { loadPaths: ['/api/a', '/api/b'], loadMs: 60_000 });
    expect(Object.fromEntries(asked)).toEqual({ '/api/ready': 4, '/api/a': 3, '/api/b': 3 });
  });

  it('hands each load time to onLoad when given, with whether the server computed the answer or reused one', async () => {
    const { base } = await fakeServer(2);
    const times: number[] = [];
    const how: (string | null)[] = [];
    await awaitBackfill(base, performance.now(), {
      loadPaths: ['/api/a'],
      loadMs: 60_000,
      onLoad: (ms, cache) => {
        times.push(ms);
        how.push(cache);
      },
    });
    expect(times.length).toBe(2);
    expect(times.every((ms) => ms >= 0)).toBe(true);
    expect(how).toEqual(['miss', 'hit']);
  });

  it('polls POLL_MS apart without a load too: the run ends within a poll of the backfill (250 ms polls added 125 ms on average)', async () => {
    const { base, asked } = await fakeServer(3);
    const t0 = performance.now();
    await awaitBackfill(base, t0, { loadPaths: [], loadMs: 0 });
    const ms = performance.now() - t0;
    expect(POLL_MS).toBe(50);
    expect(asked.get('/api/ready')).toBe(4);
    // three waits between four polls: 150 ms and the requests' own time; with 250 ms waits it was at least 750
    expect(ms).toBeGreaterThanOrEqual(3 * POLL_MS - 5);
    expect(ms).toBeLessThan(600);
  });
});
