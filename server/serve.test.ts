// The real server on a temporary folder: the ingest worker, the watcher and the read-only API together.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventListResponse, SessionDetail, SessionListResponse } from '../shared/api';
import { startServer, type RunningServer } from './serve';
import { line } from './test-support/fixture-db';
import { until } from './test-support/until';
import type { CommitRows } from './triage/commit-rows';
import { TriageModel } from './triage/model';

const offerRows = TriageModel.prototype.offer;

let root: string;
let server: RunningServer;
const logsOf = (ws: string) => path.join(root, 'Code', 'User', 'workspaceStorage', ws, 'GitHub.copilot-chat', 'debug-logs');
const ev = (sid: string, i: number) =>
  line({ ts: 1775000000000 + i, dur: 10, sid, type: 'tool_call', name: 'read_file', spanId: `${sid}-${i}`, status: 'ok', attrs: { args: '{}', result: `r${i}` } });

async function get<T>(p: string): Promise<T> {
  const res = await fetch(server.url + p);
  return (await res.json()) as T;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-serve-'));
  fs.mkdirSync(path.join(logsOf('w1'), 's1'), { recursive: true });
  fs.writeFileSync(path.join(logsOf('w1'), 's1', 'main.jsonl'), ev('s1', 0) + ev('s1', 1));
  server = await startServer({ dbPath: path.join(root, 'index.db'), roots: [path.join(root, 'Code')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });
  await server.backfilled;
}, 60_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the running server', () => {
  it('serves what the backfill indexed', async () => {
    const list = await get<SessionListResponse>('/api/sessions');
    expect(list.sessions.map((s) => [s.id, s.eventCount])).toEqual([['s1', 2]]);
  });

  it('shows lines appended to a watched file without a restart', async () => {
    const file = path.join(logsOf('w1'), 's1', 'main.jsonl');
    for (let i = 2; i < 7; i++) {
      fs.appendFileSync(file, ev('s1', i));
      const d = await until(() => get<SessionDetail>('/api/sessions/s1'), (x) => x.eventCount === i + 1);
      expect(d.eventCount).toBe(i + 1);
    }
  });

  it('finds a new session folder and a new workspace that appear while it runs', async () => {
    fs.mkdirSync(path.join(logsOf('w1'), 's2'));
    fs.writeFileSync(path.join(logsOf('w1'), 's2', 'main.jsonl'), ev('s2', 0));
    await until(() => get<SessionListResponse>('/api/sessions'), (x) => x.sessions.some((s) => s.id === 's2'));
    fs.mkdirSync(path.join(logsOf('w2'), 's3'), { recursive: true });
    fs.writeFileSync(path.join(logsOf('w2'), 's3', 'main.jsonl'), ev('s3', 0) + ev('s3', 1));
    const list = await until(() => get<SessionListResponse>('/api/sessions'), (x) => x.sessions.some((s) => s.id === 's3' && s.eventCount === 2));
    expect(list.total).toBe(3);
  });

  it('finds the no-workspace root and a profile root when they appear while it runs', async () => {
    const user = path.join(root, 'Code', 'User');
    const global = path.join(user, 'globalStorage', 'github.copilot-chat', 'debug-logs', 'g1');
    fs.mkdirSync(global, { recursive: true });
    fs.writeFileSync(path.join(global, 'main.jsonl'), ev('g1', 0));
    const profile = path.join(user, 'profiles', 'p1', 'globalStorage', 'github.copilot-chat', 'debug-logs', 'p1s');
    fs.mkdirSync(profile, { recursive: true });
    fs.writeFileSync(path.join(profile, 'main.jsonl'), ev('p1s', 0) + ev('p1s', 1));
    const list = await until(
      () => get<SessionListResponse>('/api/sessions'),
      (x) => x.sessions.some((s) => s.id === 'g1' && s.eventCount === 1) && x.sessions.some((s) => s.id === 'p1s' && s.eventCount === 2),
    );
    const found = list.sessions.filter((s) => s.id === 'g1' || s.id === 'p1s').map((s) => [s.id, s.repository]);
    expect(found.sort()).toEqual([
      ['g1', null],
      ['p1s', null],
    ]);
  });

  it('announces each indexed batch on the SSE stream with its session ids', async () => {
    const received: string[] = [];
    const req = http.get(server.url + '/api/stream', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => received.push(chunk));
    });
    await until(async () => received.join(''), (t) => t.includes('event: progress'));
    const before = (await get<SessionDetail>('/api/sessions/s1')).eventCount;
    fs.appendFileSync(path.join(logsOf('w1'), 's1', 'main.jsonl'), ev('s1', 50));
    // The backfill's last notices may still arrive (a notice waits for the search thread's commit): the append's is
    // the one naming s1.
    const notices = (t: string) => [...t.matchAll(/event: indexed\ndata: (.*)\n/g)].map((m) => (JSON.parse(m[1]) as { sessionIds: string[] }).sessionIds);
    const text = await until(async () => received.join(''), (t) => notices(t).some((ids) => ids.includes('s1')));
    expect(notices(text).find((ids) => ids.includes('s1'))).toContain('s1');
    req.destroy();
    // A late notice of an earlier commit can name s1 before this append is committed: the append is indexed before
    // this test ends, or its line lands in the next test's commit (which counts the rows of its own commit).
    await until(() => get<SessionDetail>('/api/sessions/s1'), (d) => d.eventCount === before + 1);
  });

  it("hands each commit's triage rows to the main thread's model, which lists them", async () => {
    const offered: CommitRows[] = [];
    const offer = vi.spyOn(TriageModel.prototype, 'offer').mockImplementation(function (this: TriageModel, rows: CommitRows) {
      offered.push(rows);
      return offerRows.call(this, rows);
    });
    try {
      fs.appendFileSync(path.join(logsOf('w1'), 's1', 'main.jsonl'), line({ ts: 1775000000000 + 60, dur: 42_000, sid: 's1', type: 'tool_call', name: 'run_in_terminal', spanId: 's1-60', status: 'error', attrs: { args: '{}', error: 'Command timed out' } }));
      const list = await until(() => get<EventListResponse>('/api/events?min=1000'), (l) => l.events.some((e) => e.dur === 42_000));
      const id = list.events.find((e) => e.dur === 42_000)?.id as number;
      // the batch of the commit that wrote it: its one row of the model, that call
      const batch = offered.find((b) => b.after < id && id <= b.through) as CommitRows;
      expect([batch.n, batch.strings]).toEqual([1, ['tool_call', 'run_in_terminal', 'Command timed out']]);
    } finally {
      offer.mockRestore();
    }
  });

  it('follows files inside a session folder: a new child log, a size-cap rewrite renamed over main.jsonl, a deleted file', async () => {
    const folder = path.join(logsOf('w1'), 's1');
    fs.writeFileSync(path.join(folder, 'runSubagent-c1.jsonl'), ev('c1', 0));
    await until(() => get<SessionListResponse>('/api/sessions?children=1'), (x) => x.sessions.some((s) => s.id === 'c1'));

    const main = path.join(folder, 'main.jsonl');
    const before = (await get<SessionDetail>('/api/sessions/s1')).eventCount;
    // FORMAT §4.2: the newest 60% streamed to main.jsonl.tmp, then renamed over the original; a line follows.
    const kept = fs.readFileSync(main, 'utf8').split('\n').slice(-3).join('\n');
    fs.writeFileSync(main + '.tmp', kept + ev('s1', 60));
    fs.renameSync(main + '.tmp', main);
    const d = await until(() => get<SessionDetail>('/api/sessions/s1'), (x) => x.eventCount === before + 1);
    expect(d.eventCount).toBe(before + 1);

    fs.rmSync(path.join(folder, 'runSubagent-c1.jsonl'));
    const c1 = await until(() => get<SessionDetail>('/api/sessions/c1'), (x) => x.logDeleted);
    expect([c1.logDeleted, c1.eventCount]).toEqual([true, 1]);
  });

  it('marks a session whose folder was deleted, keeping its events', async () => {
    fs.rmSync(path.join(logsOf('w1'), 's2'), { recursive: true });
    const d = await until(() => get<SessionDetail>('/api/sessions/s2'), (x) => x.logDeleted);
    expect([d.logDeleted, d.eventCount]).toEqual([true, 1]);
  });

  it('follows a session folder recreated under the same name, and appends to it', async () => {
    const folder = path.join(logsOf('w1'), 's2');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'main.jsonl'), ev('s2', 1));
    await until(() => get<SessionDetail>('/api/sessions/s2'), (x) => x.eventCount === 2 && !x.logDeleted);
    fs.appendFileSync(path.join(folder, 'main.jsonl'), ev('s2', 2));
    const d = await until(() => get<SessionDetail>('/api/sessions/s2'), (x) => x.eventCount === 3);
    expect([d.eventCount, d.logDeleted]).toEqual([3, false]);
  });

  it('follows a session folder deleted and created again at once (before any event of the deletion is handled)', async () => {
    const folder = path.join(logsOf('w2'), 's3');
    fs.rmSync(folder, { recursive: true });
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'main.jsonl'), ev('s3', 5));
    const d = await until(() => get<SessionDetail>('/api/sessions/s3'), (x) => x.eventCount === 3 && !x.logDeleted);
    fs.appendFileSync(path.join(folder, 'main.jsonl'), ev('s3', 6));
    const after = await until(() => get<SessionDetail>('/api/sessions/s3'), (x) => x.eventCount === 4);
    expect([d.eventCount, after.eventCount, after.logDeleted]).toEqual([3, 4, false]);
  });

  it('answers errors in the one error body', async () => {
    const res = await fetch(server.url + '/api/sessions/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: 'session nope was not found' } });
    const bad = await fetch(server.url + '/api/sessions?window=2h');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('bad_request');
  });

  it("times /api/health from its connection's accept (Server-Timing), on a connection's first request only", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const timingOf = () =>
      new Promise<string | undefined>((resolve, reject) =>
        http.get(server.url + '/api/health', { agent }, (res) => res.resume().on('end', () => resolve(res.headers['server-timing'] as string | undefined))).on('error', reject),
      );
    const first = await timingOf();
    const second = await timingOf();
    agent.destroy();
    expect(first).toMatch(/^accept;dur=\d+\.\d\d$/);
    expect(second).toBeUndefined();
    // other routes do not time themselves
    const sessions = await fetch(server.url + '/api/sessions');
    expect(sessions.headers.get('server-timing')).toBeNull();
  });
});
