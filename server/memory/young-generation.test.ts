import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from '../launch-flags';
import { launchSemiSpaceMb } from './young-generation';

describe('launchSemiSpaceMb', () => {
  it("reads the process's --max-semi-space-size, the last one given, 0 when none", () => {
    expect(launchSemiSpaceMb(['--max-semi-space-size=4'])).toBe(4);
    expect(launchSemiSpaceMb(['--max_semi_space_size=8', '--inspect', '--max-semi-space-size=2'])).toBe(2);
    expect(launchSemiSpaceMb(['--max-old-space-size=512'])).toBe(0);
    expect(launchSemiSpaceMb([])).toBe(0);
  });
});

/**
 * A process started as the server is (the launch flags), one worker made through spawnWithOwnYoungGeneration and
 * one made after it settled, both asking for a 48 MB young generation; each churns objects, some surviving, and
 * reports the largest its new space grew to (two semi-spaces, MB).
 */
function youngGenerations(nodeArgs: readonly string[]): { own: number; other: number; settledAfter: boolean } {
  const module = path.resolve('server/memory/young-generation.ts');
  const script = `
    import { Worker } from 'node:worker_threads';
    import { spawnWithOwnYoungGeneration, youngGenerationSettling } from ${JSON.stringify(module)};
    // (the worker inherits --input-type=module: imports, not require)
    const churn = \`Promise.all([import('node:v8'), import('node:worker_threads')]).then(([v8, threads]) => {
      let keep = [];
      let max = 0;
      for (let i = 0; i < 3e6; i++) {
        keep.push({ i, s: 'x' + i });
        if (keep.length > 100000) keep = [];
        if (i % 5000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
      }
      threads.parentPort.postMessage(max / 2 ** 20);
    });\`;
    const limits = { maxYoungGenerationSizeMb: 48 };
    // listened to at once: a worker's message with no listener yet is lost
    const answer = (w) => new Promise((resolve, reject) => { w.once('error', reject); w.once('message', (m) => { resolve(m); void w.terminate(); }); });
    const own = answer(spawnWithOwnYoungGeneration(() => new Worker(churn, { eval: true, resourceLimits: limits })));
    await youngGenerationSettling();
    const other = answer(new Worker(churn, { eval: true, resourceLimits: limits }));
    console.log(JSON.stringify({ own: await own, other: await other, settledAfter: youngGenerationSettling() === null }));
  `;
  const r = spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim()) as { own: number; other: number; settledAfter: boolean };
}

describe('spawnWithOwnYoungGeneration', () => {
  it("gives that worker its resource limits' young generation under the launch flag, and every other worker the flag's", () => {
    expect(SERVER_NODE_ARGS).toContain('--max-semi-space-size=4');
    // 48 MB asked for: two 16 MB semi-spaces; the flag's 4 MB: two of 4
    expect(youngGenerations(SERVER_NODE_ARGS)).toEqual({ own: 32, other: 8, settledAfter: true });
  });

  it('changes nothing in a process started without the flag (tests, node run by hand): the limits hold for both', () => {
    expect(youngGenerations([])).toEqual({ own: 32, other: 32, settledAfter: true });
  });
});
