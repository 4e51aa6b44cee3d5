// Issue 14.6 / 19.4: does any request hold the event loop? Two measurements against a real server process:
// health while 2,000-character phrase searches run, and bursts of 200 mixed queries during a backfill.
import { spawn } from 'node:child_process';
import { openReadDb } from '../../server/db/open';
import { eventIndexedText } from '../../server/search/snippet';
import { acceptDuration } from '../../server/http/server-timing';
import { timedGet } from '../lib/http';
import { summarize, type Timing } from '../lib/stats';

const HEALTH_EVERY_MS = 25;
/** Concurrent requests per burst (issue 19.4) */
export const BURST = 200;

/** A query term of at most `maxChars` with its quotes: a real stretch of the longest indexed text found. */
export function longPhraseQuery(dbPath: string, maxChars = 2000): string | null {
  const db = openReadDb(dbPath);
  try {
    const ids = db.prepare("SELECT id FROM events WHERE type = 'tool_call' ORDER BY id DESC LIMIT 20000").pluck().all() as number[];
    for (const id of ids) {
      const t = eventIndexedText(db, id);
      if (!t || t.length < maxChars + 200) continue;
      let cut = t.slice(100, 100 + maxChars);
      const quoted = (s: string) => `"${s.replace(/"/g, '""')}"`;
      while (quoted(cut.trim()).length > maxChars) cut = cut.slice(0, -1);
      return quoted(cut.trim());
    }
    return null;
  } finally {
    db.close();
  }
}

// The health client, in a process of its own: in this one its timings would include the event loop of the very
// client that sends 200 requests at once and reads their answers (a 340 ms p95 where the server took 130 ms).
const HEALTH_CLIENT = `
const http = require('node:http');
const [base, everyMs] = JSON.parse(process.argv[1]);
const samples = [];
let running = true;
process.stdin.on('data', () => (running = false));
const get = () => new Promise((resolve, reject) => {
  const t = performance.now();
  http.get(base + '/api/health', { agent: false }, (res) => {
    const timing = res.headers['server-timing'] ?? null;
    res.resume();
    res.on('end', () => resolve([performance.now() - t, timing]));
  }).on('error', reject);
});
(async () => {
  while (running) {
    samples.push(await get());
    await new Promise((r) => setTimeout(r, everyMs));
  }
  process.stdout.write(JSON.stringify(samples));
  process.exit(0);
})();
`;

/** What the health client saw: each request's time, and the server's share of it (Server-Timing), when it said. */
interface HealthSamples {
  ms: number[];
  inServer: number[];
}

/** Polls /api/health one request after another, 25 ms apart, until `stop()`; resolves with its latencies. */
function sampleHealth(base: string): { stop(): Promise<HealthSamples> } {
  const child = spawn(process.execPath, ['-e', HEALTH_CLIENT, JSON.stringify([base, HEALTH_EVERY_MS])], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the health client exited with ${code}`)))));
  return {
    stop: async () => {
      child.stdin.end('stop\n');
      await exited;
      const samples = JSON.parse(out) as [number, string | null][];
      return {
        ms: samples.map(([ms]) => ms),
        inServer: samples.map(([, timing]) => acceptDuration(timing)).filter((x): x is number => x !== null),
      };
    },
  };
}

/** /api/health with nothing else asked of the server, for `seconds`: what the machine itself allows. */
export async function healthAlone(base: string, seconds: number): Promise<Timing> {
  const h = sampleHealth(base);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return summarize((await h.stop()).ms);
}

/**
 * /api/health while `streams` clients each search for the long phrase again as soon as their last answer came,
 * for `seconds`. What issue 14.6 measured: one such search held the loop for 7–8 s.
 */
export async function healthDuringLongSearches(base: string, query: string, o: { streams: number; seconds: number }): Promise<{ health: Timing; search: Timing; statuses: number[] }> {
  const path = `/api/search?q=${encodeURIComponent(query)}`;
  await timedGet(base, path); // prepared statements, page cache: the steady state is measured
  // each search a URL of its own (a parameter the server ignores): the server's answer cache would otherwise
  // answer all but the first, and this row is about searches that run
  let n = 0;
  const until = performance.now() + o.seconds * 1000;
  const searchMs: number[] = [];
  const statuses = new Set<number>();
  const health = sampleHealth(base);
  await Promise.all(
    Array.from({ length: o.streams }, async () => {
      while (performance.now() < until) {
        const r = await timedGet(base, `${path}&run=${++n}`);
        searchMs.push(r.ms);
        statuses.add(r.status);
      }
    }),
  );
  return { health: summarize((await health.stop()).ms), search: summarize(searchMs), statuses: [...statuses] };
}

/**
 * Bursts of BURST requests at once, cycling through `paths`, one burst after another until `done()` (the
 * backfill is over) or `maxBursts`; /api/health sampled throughout. Every request of every burst counts.
 */
export async function burstsDuring(
  base: string,
  paths: string[],
  o: { done: () => boolean; maxBursts: number },
): Promise<{ queries: Timing; byPath: Map<string, Timing>; health: Timing; healthInServer: Timing | null; bursts: number; failed: number; computed: number }> {
  const ms: number[] = [];
  // answers the server computed (X-Chronoscope-Cache: miss); the others joined one in flight or reused one
  let computed = 0;
  const byPath = new Map<string, number[]>(paths.map((p) => [p, []]));
  let failed = 0;
  let bursts = 0;
  const health = sampleHealth(base);
  while (!o.done() && bursts < o.maxBursts) {
    // to the last byte, unparsed: parsing 200 answers in this process would be the client's time, not the server's
    const results = await Promise.all(Array.from({ length: BURST }, (_, i) => timedGet(base, paths[i % paths.length], { parse: false })));
    for (const [i, r] of results.entries()) {
      ms.push(r.ms);
      byPath.get(paths[i % paths.length])!.push(r.ms);
      // a 404 is fair early in a backfill (the session of a spans request is not indexed yet); a 5xx is not
      if (r.status >= 500) failed++;
      if (r.cache === 'miss') computed++;
    }
    bursts++;
  }
  const perPath = new Map([...byPath].map(([p, t]) => [p, summarize(t)]));
  const h = await health.stop();
  return { queries: summarize(ms), byPath: perPath, health: summarize(h.ms), healthInServer: h.inServer.length > 0 ? summarize(h.inServer) : null, bursts, failed, computed };
}
