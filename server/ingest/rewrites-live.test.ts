// Rewrites that are not one atomic rename, against the real server (ingest worker, watchers, read API): a file
// truncated in place and written back in pieces with pauses, and a session folder deleted and copied back with
// cp -r. The event count must stay exactly where it was; lines appended afterwards are still added.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health, SessionDetail } from '../../shared/api';
import { startServer, type RunningServer } from '../serve';
import { line } from '../test-support/fixture-db';
import { until } from '../test-support/until';

let root: string;
let server: RunningServer;
const logs = () => path.join(root, 'Code', 'User', 'workspaceStorage', 'w1', 'GitHub.copilot-chat', 'debug-logs');
const pad = 'x'.repeat(600);
const ev = (sid: string, i: number) =>
  line({ ts: 1775000000000 + i, dur: 3, sid, type: 'tool_call', name: 'read_file', spanId: `${(i + 1).toString(16).padStart(16, '0')}`, status: 'ok', attrs: { args: '{}', result: `${pad}${i}` } });
const lines = (sid: string, from: number, to: number) => Array.from({ length: to - from }, (_, k) => ev(sid, from + k)).join('');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function get<T>(p: string): Promise<T> {
  return (await (await fetch(server.url + p)).json()) as T;
}

const events = async () => (await get<Health>('/api/health')).events;
const sessionEvents = async (id: string) => (await get<SessionDetail>(`/api/sessions/${id}`)).eventCount;

/**
 * Appends one new line to `file` and waits until it is counted: everything written before it has been read by
 * then, so the count it settles at is exact (a duplicate written by the rewrite shows as more than +1).
 */
async function settleWith(file: string, sid: string, i: number): Promise<number> {
  const before = await events();
  fs.appendFileSync(file, ev(sid, i));
  await sleep(600);
  return until(events, (n) => n >= before + 1);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-rewrites-'));
  fs.mkdirSync(path.join(logs(), 's1'), { recursive: true });
  fs.mkdirSync(path.join(logs(), 's2'), { recursive: true });
  fs.writeFileSync(path.join(logs(), 's1', 'main.jsonl'), lines('s1', 0, 3000)); // ~1.9 MB: cp writes it in many pieces
  fs.writeFileSync(path.join(logs(), 's2', 'main.jsonl'), lines('s2', 0, 1000));
  fs.writeFileSync(path.join(logs(), 's2', 'title-c2.jsonl'), lines('c2', 0, 11));
  server = await startServer({ dbPath: path.join(root, 'index.db'), roots: [path.join(root, 'Code')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });
  await server.backfilled;
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('rewrites that are not an atomic rename, live', () => {
  it('a watched file truncated and written back in 9 pieces with pauses: the count is unchanged, a new line adds one', async () => {
    expect(await events()).toBe(4011);
    const file = path.join(logs(), 's1', 'main.jsonl');
    const content = fs.readFileSync(file, 'utf8');
    fs.truncateSync(file, 0);
    await sleep(400);
    const piece = Math.ceil(content.length / 9);
    for (let i = 0; i < content.length; i += piece) {
      fs.appendFileSync(file, content.slice(i, i + piece)); // cuts lines in the middle
      await sleep(350);
    }
    expect(await settleWith(file, 's1', 3000)).toBe(4012);
    expect(await sessionEvents('s1')).toBe(3001);
  }, 60_000);

  it('a session folder deleted and copied back with cp -r: the count is unchanged; lines appended after it are added', async () => {
    const base = await events(); // 4011, or 4012 after the test above
    const dir = path.join(logs(), 's2');
    const copy = path.join(root, 'backup-s2');
    expect(spawnSync('cp', ['-r', dir, copy]).status).toBe(0);
    fs.rmSync(dir, { recursive: true });
    await until(() => get<SessionDetail>('/api/sessions/s2'), (d) => d.logDeleted);
    expect(await events()).toBe(base);
    expect(spawnSync('cp', ['-r', copy, dir]).status).toBe(0);
    await until(() => get<SessionDetail>('/api/sessions/s2'), (d) => !d.logDeleted);
    const file = path.join(dir, 'main.jsonl');
    expect(await settleWith(file, 's2', 1000)).toBe(base + 1);
    fs.appendFileSync(file, lines('s2', 1001, 1004));
    fs.appendFileSync(path.join(dir, 'title-c2.jsonl'), lines('c2', 11, 12));
    await until(events, (n) => n >= base + 5);
    await sleep(600);
    expect(await events()).toBe(base + 5);
    // a session's event count includes its child logs (shared/counts.ts): s2's 1004 lines and its title child's 12
    expect([await sessionEvents('s2'), await sessionEvents('c2')]).toEqual([1004 + 12, 12]);
  }, 60_000);

  it('a session folder deleted and copied back slowly (each file in pieces, as cp does on a slow disk): the count is unchanged', async () => {
    const base = await events();
    const dir = path.join(logs(), 's1');
    const saved = fs.readFileSync(path.join(dir, 'main.jsonl'), 'utf8');
    fs.rmSync(dir, { recursive: true });
    await until(() => get<SessionDetail>('/api/sessions/s1'), (d) => d.logDeleted);
    fs.mkdirSync(dir);
    const file = path.join(dir, 'main.jsonl');
    const piece = Math.ceil(saved.length / 6);
    for (let i = 0; i < saved.length; i += piece) {
      fs.appendFileSync(file, saved.slice(i, i + piece));
      await sleep(350);
    }
    expect(await settleWith(file, 's1', 3001)).toBe(base + 1);
    expect(await sessionEvents('s1')).toBe(3002);
  }, 60_000);
});
