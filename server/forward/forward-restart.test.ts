import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { startReceiver, type Receiver } from '../test-support/otlp-receiver';
import { BATCH_EVENTS } from './forwarder';

// The real server forwarding a generated corpus to a receiver, SIGKILLed in the middle and started again: in
// the end the receiver has every event's span (hidden in-file repeats aside). Delivery is at least once: a
// request the collector had already received when the process died is sent again after the restart, with the
// same span ids (a collector that keys spans on their ids keeps one copy); nothing else is sent twice.

const cli = path.resolve('server/main.ts');
let dir: string;
let rx: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-forward-'));
  await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 5, targetBytes: 3 * 1024 * 1024 });
  rx = await startReceiver();
  rx.delayMs = 150; // a slow collector: the kill lands while requests are still going out
}, 120_000);
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await rx.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function serve(port: number): ChildProcess {
  const c = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--logs', path.join(dir, 'corpus'), '--db', path.join(dir, 'i.db'), '--port', String(port), '--otlp-endpoint', rx.url], { stdio: 'ignore' });
  children.push(c);
  return c;
}

async function health(port: number): Promise<{ forwarding: { state: string; pending: number } | null } | null> {
  try {
    return (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as { forwarding: { state: string; pending: number } | null };
  } catch {
    return null;
  }
}

async function until(ok: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('forwarding across a SIGKILL', () => {
  it('every span exactly once after a kill and a restart', async () => {
    const first = serve(7395);
    await until(() => rx.spans.length >= 1000, 90_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const beforeRestart = rx.spans.length;
    rx.delayMs = 0;
    serve(7394);
    await until(async () => {
      const h = await health(7394);
      return h?.forwarding?.state === 'idle' && h.forwarding.pending === 0;
    }, 120_000);
    const db = new Database(path.join(dir, 'i.db'), { readonly: true });
    const events = (db.prepare('SELECT count(*) n FROM events WHERE dup != 2').get() as { n: number }).n;
    db.close();
    const ids = rx.spans.map((s) => s.spanId);
    expect(beforeRestart).toBeLessThan(events); // the kill really landed mid-way
    expect(new Set(ids).size).toBe(events); // nothing skipped
    expect(ids.length - events).toBeLessThanOrEqual(BATCH_EVENTS); // at most the request in flight, again
  }, 240_000);
});
