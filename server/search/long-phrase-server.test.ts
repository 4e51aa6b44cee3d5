import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import type { SearchResponse } from '../../shared/api/search';
import { startServer, type RunningServer } from '../serve';
import { eventIndexedText } from './snippet';
import { until } from '../test-support/until';

// Issue 14.6, held-out check: /api/health answers within 250 ms while 2,000-character phrase searches run. On
// a real server over a generated corpus: four such searches at once held the event loop for their ~2,000
// trigram lookups each, and health waited behind all of them (1.7 s here before the fix; ~150 ms after it on a
// machine with a load average of 13 on two cores, 5–50 ms idle).

let root: string;
let server: RunningServer;
let phrase = '';
/** One query term: quotes doubled inside */
const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-long-phrase-'));
  const m = await generateCorpus({ outDir: path.join(root, 'corpus'), seed: 7, targetBytes: 32 * 2 ** 20 });
  server = await startServer({ dbPath: path.join(root, 'index.db'), roots: m.userDataDirs, port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });
  await server.backfilled;
  // The backfill is done once the archive holds every line; search finds them once its thread has caught up, which
  // /api/ready waits for. The phrase comes from the last events written: searched before that, it was not found
  // (once in CI, on a busy host, with the search thread at nice 10).
  await until(() => fetch(`${server.url}/api/ready`).then((r) => r.status), (status) => status === 200);
  // A real 1,998-character stretch of a tool call's indexed text (quoted, the longest query there is).
  const ids = server.ctx.db.prepare("SELECT id FROM events WHERE type = 'tool_call' ORDER BY id DESC LIMIT 5000").pluck().all() as number[];
  for (const id of ids) {
    const t = eventIndexedText(server.ctx.db, id);
    if (!t || t.length < 2400) continue;
    let cut = t.slice(200, 2198);
    while (quoted(cut).length > 2000) cut = cut.slice(0, -1);
    phrase = cut.trim();
    break;
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function timed<T>(p: string): Promise<{ ms: number; status: number; body: T }> {
  const t = performance.now();
  const res = await fetch(server.url + p);
  const body = (await res.json()) as T;
  return { ms: performance.now() - t, status: res.status, body };
}
const search = (text: string) => timed<SearchResponse>(`/api/search?q=${encodeURIComponent(quoted(text))}`);

describe('a 2,000-character phrase search on a real server', () => {
  it('leaves /api/health answering within 250 ms while four of them run, and finds exactly the phrase', async () => {
    expect(phrase.length).toBeGreaterThan(1900);
    await search(phrase); // statements prepared, pages cached: what is measured is the search itself
    const altered = `${phrase.slice(0, 1000)}§${phrase.slice(1001)}`;
    const searches = [search(phrase), search(altered), search(phrase), search(altered)];
    const health: number[] = [];
    for (let i = 0; i < 5; i++) {
      health.push((await timed('/api/health')).ms);
      await new Promise((r) => setTimeout(r, 10));
    }
    const [found, absent] = await Promise.all(searches);
    expect(found.status).toBe(200);
    expect(found.body.totals.exact).toBe(true);
    expect(found.body.totals.sessions).toBeGreaterThanOrEqual(1);
    expect(absent.body.totals).toMatchObject({ sessions: 0, events: 0, exact: true });
    expect(Math.max(...health)).toBeLessThan(250);
    expect(Math.max(found.ms, absent.ms)).toBeLessThan(1000);
  }, 60_000);
});
