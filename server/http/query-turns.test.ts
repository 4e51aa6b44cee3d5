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

async function start(maxWaiting?: number): Promise<string> {
  const turns = queryTurns(maxWaiting);
  const app = new Hono();
  app.use('/q/*', turns);
  app.get('/q/slow', (c) => {
    busyFor(30);
    return c.json({ ok: true }, 200);
  });
  app.get('/q/quick', (c) => {
    busyFor(1);
    return c.json({ ok: true }, 200);
  });
  app.get('/health', (c) => c.json({ ok: true }, 200));
  app.onError(handleError);
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Timed {
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
  http.get(base + p, { agent: false }, (res) => {
    let body = '';
    res.on('data', (d) => (body += d));
    res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode, body: JSON.parse(body) }));
  });
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
Promise.all(plan.map(([p, at]) => new Promise((r) => setTimeout(r, at)).then(() => get(p)))).then((r) => process.stdout.write(JSON.stringify(r)));
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
    // 20 slow ones (600 ms back to back), then 5 quick ones 100 ms in, behind ~16 slow ones still waiting
    const plan = [...Array.from({ length: 20 }, () => ['/q/slow', 0] as [string, number]), ...Array.from({ length: 5 }, () => ['/q/quick', 100] as [string, number])];
    const r = await timedPlan(base, plan);
    expect(r.every((x) => x.status === 200)).toBe(true);
    // When each answer was finished, from the plan's start: the order of the turns, whatever the machine's speed
    // (a bound in ms failed at 432 ms on a loaded machine while the order was right).
    const finished = r.map((x, i) => ({ path: x.path, at: plan[i][1] + x.ms }));
    const lastQuick = Math.max(...finished.filter((x) => x.path === '/q/quick').map((x) => x.at));
    const slowAfter = finished.filter((x) => x.path === '/q/slow' && x.at > lastQuick).length;
    // first come, first served, all 20 slow ones finish before the quick ones (0 after them); quickest first, the
    // ~16 still waiting 100 ms in finish after the last quick one (at least 10 of them, leaving room for noise)
    expect(slowAfter).toBeGreaterThanOrEqual(10);
  });

  it('answers an unqueued request while 20 slow queries wait (600 ms of them back to back)', async () => {
    const base = await start();
    // health is asked 100 ms in: the slow ones have arrived, about 500 ms of them are still to run
    const { slow, health } = await load(base, 20, 100);
    expect(slow.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...slow.map((r) => r.ms))).toBeGreaterThan(500);
    // one query's 30 ms plus the machine's noise, not the queries still waiting
    expect(health!.ms).toBeLessThan(200);
  });

  it('refuses past the bound of waiting queries with the one error body (503)', async () => {
    const base = await start(2);
    // how many arrive while the first runs depends on the machine: at least the running one and two waiting pass
    const results = (await load(base, 12, -1)).slow;
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(results.find((r) => r.status === 503)!.body).toEqual({
      error: { code: 'busy', message: '2 requests are already waiting for the database; try again in a moment' },
    });
  });
});
