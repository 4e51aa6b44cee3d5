// The supervisor with stand-in worker scripts: each start is counted in a file, and a script crashes on the
// starts it is told to, so restarts and the give-up are observable without crashing a real indexer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerMessage } from './worker';
import { MAX_RESTARTS, superviseIngestWorker, type SupervisedWorker } from './supervise-worker';

let dir: string;
let running: SupervisedWorker | null = null;

afterEach(async () => {
  await running?.terminate();
  running = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A worker that throws on its first `crashes` starts and reports idle after that. */
function standIn(crashes: number): { script: string; starts: () => number } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-supervise-'));
  const counter = path.join(dir, 'starts');
  fs.writeFileSync(counter, '0');
  const script = path.join(dir, 'worker.mjs');
  fs.writeFileSync(
    script,
    `import fs from 'node:fs';
     import { parentPort } from 'node:worker_threads';
     const n = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1;
     fs.writeFileSync(${JSON.stringify(counter)}, String(n));
     if (n <= ${crashes}) throw new Error('boom ' + n);
     parentPort.postMessage({ type: 'progress', state: 'idle', filesDone: n, filesTotal: n, bytesDone: 0, bytesTotal: 0 });
     setInterval(() => {}, 1000);`,
  );
  return { script, starts: () => Number(fs.readFileSync(counter, 'utf8')) };
}

function supervise(script: string) {
  const problems: string[] = [];
  let idle: (m: WorkerMessage) => void = () => {};
  const idleSeen = new Promise<WorkerMessage>((resolve) => (idle = resolve));
  running = superviseIngestWorker({
    input: { dbPath: '', roots: [], watch: false },
    script,
    onMessage: (m) => idle(m),
    onProblem: (reason) => problems.push(reason),
  });
  return { problems, idleSeen };
}

describe('superviseIngestWorker', () => {
  it('starts a crashed worker again and says so each time', async () => {
    const w = standIn(2);
    const { problems, idleSeen } = supervise(w.script);
    expect(await idleSeen).toMatchObject({ type: 'progress', state: 'idle', filesDone: 3 });
    expect(problems).toEqual([
      'The indexer stopped (boom 1) and was restarted; it resumed from its last commit.',
      'The indexer stopped (boom 2) and was restarted; it resumed from its last commit.',
    ]);
    expect(w.starts()).toBe(3);
  });

  it(`gives up after ${MAX_RESTARTS} restarts within a minute, with a message saying that indexing stopped`, async () => {
    const w = standIn(100);
    const { problems } = supervise(w.script);
    const start = Date.now();
    while (problems.length <= MAX_RESTARTS && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300)); // a further start, if any, would have happened by now
    expect(w.starts()).toBe(MAX_RESTARTS + 1);
    expect(problems).toHaveLength(MAX_RESTARTS + 1);
    expect(problems[MAX_RESTARTS]).toBe(
      'The indexer stopped (boom 4) 4 times within a minute and was not restarted again: new lines are not being indexed. Restart Chronoscope; if it happens again, please report it with this message.',
    );
  });

  it('does not restart a worker it was asked to stop', async () => {
    const w = standIn(0);
    const { problems, idleSeen } = supervise(w.script);
    await idleSeen;
    await running?.terminate();
    running = null;
    await new Promise((r) => setTimeout(r, 200));
    expect([w.starts(), problems]).toEqual([1, []]);
  });
});
