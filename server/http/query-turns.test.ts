import { serve } from '@hono/node-server';
import { spawn } from 'node:child_process';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { handleError } from './errors';
import { queryTurns } from './query-turns';

// Issue 14.6: 200 requests arriving together ran back to back before Node read another socket, so health
// waited for all of them. A synchronous 30 ms handler stands for a database query here.
const busyFor = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* what a synchronous better-sqlite3 call does to the event loop */
  }
};

let close: (() => void) | null = null;
afterEach(() => close?.());

/** One clock for both processes: milliseconds since the epoch, to the microsecond. */
const CLOCK = 'performance.timeOrigin + performance.now()';
const now = () => performance.timeOrigin + performance.now();

/** What the server saw, in order: each /q request's arrival (before it waits for its turn) and its answer, when. */
let seen: { at: 'arrive' | 'done'; path: string; n: number; t: number }[] = [];

async function start(maxWaiting?: number): Promise<string> {
  const turns = queryTurns(maxWaiting);
  const app = new Hono();
  seen = [];
  let n = 0;
  app.use('/q/*', async (c, next) => {
    const id = n++;
    seen.push({ at: 'arrive', path: c.req.path, n: id, t: now() });
    c.set('n' as never, id as never);
    await next();
  });
  app.use('/q/*', turns);
  const done = (c: { get: (k: never) => unknown; req: { path: string } }) => seen.push({ at: 'done', path: c.req.path, n: c.get('n' as never) as number, t: now() });
  app.get('/q/slow', (c) => {
    busyFor(30);
    done(c);
    return c.json({ ok: true }, 200);
  });
  app.get('/q/quick', (c) => {
    busyFor(1);
    done(c);
    return c.json({ ok: true }, 200);
  });
  app.get('/health', (c) => {
    seen.push({ at: 'done', path: c.req.path, n: n++, t: now() });
    return c.json({ ok: true }, 200);
  });
  app.onError(handleError);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Timed {
  /** when it was written to its connection, on the shared clock */
  sent: number;
  ms: number;
  status: number;
  body: unknown;
}

// The client runs in a process of its own: one in this process would need turns of the very event loop it
// measures to connect and write its requests.
const CLIENT = `
const http = require('node:http');
const [base, n, healthAfterMs] = JSON.parse(process.argv[1]);
const get = (p) => new Promise((resolve) => {
  const t = performance.now();
  let sent;
  const req = http.get(base + p, { agent: false }, (res) => {
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => resolve({ sent, ms: performance.now() - t, status: res.statusCode, body: JSON.parse(body) }));
  });
  // sent when connected: the request is written by http's own listener, which runs before this one (a starved
  // client can connect long after it called get)
  req.on('socket', (s) => s.once('connect', () => (sent = ${CLOCK})));
});
const slow = Array.from({ length: n }, () => get('/q/slow'));
const health = healthAfterMs < 0 ? Promise.resolve(null) : new Promise((r) => setTimeout(r, healthAfterMs)).then(() => get('/health'));
Promise.all([Promise.all(slow), health]).then(([s, h]) => process.stdout.write(JSON.stringify({ slow: s, health: h })));
`;

function load(base: string, n: number, healthAfterMs: number): Promise<{ slow: Timed[]; health: Timed | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, JSON.stringify([base, n, healthAfterMs])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}

// Requests sent at the given delays (ms), each answered with its time and status, in the order sent.
const TIMED_CLIENT = `
const http = require('node:http');
const [base, plan] = JSON.parse(process.argv[1]);
const get = (p) => new Promise((resolve) => {
  const t = performance.now();
  http.get(base + p, { agent: false }, (res) => {
    res.resume();
    res.on('end', () => resolve({ path: p, ms: performance.now() - t, status: res.statusCode }));
  });
});
// a delay of -1: sent when the first answer to the others comes back (the server has begun; the rest still wait)
let firstAnswer;
const answered = new Promise((r) => (firstAnswer = r));
const sent = plan.map(([p, at]) => (at < 0 ? answered : new Promise((r) => setTimeout(r, at))).then(() => get(p)).then((x) => (firstAnswer(), x)));
Promise.all(sent).then((r) => process.stdout.write(JSON.stringify(r)));
`;

function timedPlan(base: string, plan: [string, number][]): Promise<{ path: string; ms: number; status: number }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', TIMED_CLIENT, JSON.stringify([base, plan])], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`client exited ${code}`))));
  });
}

describe('queries take turns with the rest of the server', () => {
  it('gives the next turn to the route that has been quickest, not to whoever came first', async () => {
    const base = await start();
    // one of each first, one after the other: the turns learn that /q/slow takes 30 ms and /q/quick 1 ms
    await timedPlan(base, [['/q/slow', 0]]);
    await timedPlan(base, [['/q/quick', 0]]);
    // 20 slow ones (600 ms back to back), then 5 quick ones once the first slow one is answered, behind the ~18
    // still waiting (sent at a time on the client's clock, a loaded machine sent them when none waited any more)
    const plan = [...Array.from({ length: 20 }, () => ['/q/slow', 0] as [string, number]), ...Array.from({ length: 5 }, () => ['/q/quick', -1] as [string, number])];
    // Read from what the server saw, not from the client's clock: for each quick one, the slow ones waiting when
    // it arrived, and how many of those it overtook. First come, first served overtakes none; quickest first, all
    // but the one already running. A client starved of CPU can send its requests so slowly that none ever waits
    // (each answered before the next arrived): such a run says nothing about the order, and is run again.
    let waiting = 0;
    let overtaken = 0;
    for (let attempt = 0; attempt < 5 && waiting === 0; attempt++) {
      seen = [];
      const r = await timedPlan(base, plan);
      expect(r.every((x) => x.status === 200)).toBe(true);
      overtaken = 0;
      const position = (at: 'arrive' | 'done', n: number) => seen.findIndex((e) => e.at === at && e.n === n);
      const slowOnes = seen.filter((e) => e.at === 'arrive' && e.path === '/q/slow').map((e) => e.n);
      for (const q of seen.filter((e) => e.at === 'arrive' && e.path === '/q/quick')) {
        const arrived = position('arrive', q.n);
        const answered = position('done', q.n);
        const ahead = slowOnes.filter((s) => position('arrive', s) < arrived && position('done', s) > arrived);
        waiting += Math.max(0, ahead.length - 1);
        overtaken += ahead.filter((s) => position('done', s) > answered).length;
      }
    }
    expect(waiting).toBeGreaterThan(0);
    expect(overtaken).toBeGreaterThanOrEqual(waiting);
  });

  it('answers an unqueued request while 20 slow queries wait (600 ms of them back to back)', async () => {
    const base = await start();
    // Counted in queries, not milliseconds: the slow ones the server answered between health's sending (the
    // client's clock and the server's are the same machine's) and health's answer. With the turns that is the one
    // running and the one or two whose turns pass while Node accepts the connection and reads the request;
    // without them, every slow one that was waiting (17 or 18). A timed bound measured the machine instead: under
    // the full suite a starved client or server took 543 ms to see the same answer, and even counted in queries
    // a process descheduled at the wrong moment (3 busy loops on 2 cores) once let 8 pass. So the best of up
    // to 5 runs is judged. A run in which fewer than 5 slow ones sent before health were still unanswered when
    // it was sent (a starved client's timer fired late) says nothing, and does not count.
    const runs: { waitingAtSend: number; answeredMeanwhile: number }[] = [];
    for (let attempt = 0; attempt < 5 && !runs.some((r) => r.waitingAtSend >= 5 && r.answeredMeanwhile <= 3); attempt++) {
      seen = [];
      // health is asked 100 ms in: the slow ones have arrived, about 500 ms of them are still to run
      const { slow, health } = await load(base, 20, 100);
      expect(slow.every((r) => r.status === 200)).toBe(true);
      expect(health!.status).toBe(200);
      const answeredAt = seen.find((e) => e.path === '/health')!.t;
      const answeredBy = (t: number) => seen.filter((e) => e.path === '/q/slow' && e.at === 'done' && e.t < t).length;
      const waitingAtSend = slow.filter((r) => r.sent < health!.sent).length - answeredBy(health!.sent);
      runs.push({ waitingAtSend, answeredMeanwhile: answeredBy(answeredAt) - answeredBy(health!.sent) });
    }
    const judged = runs.filter((r) => r.waitingAtSend >= 5);
    expect(judged.length).toBeGreaterThan(0);
    expect(Math.min(...judged.map((r) => r.answeredMeanwhile))).toBeLessThanOrEqual(3);
  });

  it('refuses past the bound of waiting queries with the one error body (503)', async () => {
    const base = await start(2);
    // how many arrive while the first runs depends on the machine: at least the running one and two waiting pass;
    // a client starved of CPU can send them so slowly that none waits (no 503 to check): that run is run again
    let results: Timed[] = [];
    for (let attempt = 0; attempt < 5 && !results.some((r) => r.status === 503); attempt++) results = (await load(base, 12, -1)).slow;
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(results.find((r) => r.status === 503)!.body).toEqual({
      error: { code: 'busy', message: '2 requests are already waiting for the database; try again in a moment' },
    });
  });
});
