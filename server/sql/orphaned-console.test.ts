import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureDb } from '../test-support/fixture-db';
import { sqlFixtureDb } from './sql-fixture';

// Issue 14 item 5: a server killed with SIGKILL (no exit handler runs) left its console process spinning in a
// runaway statement, pinning the WAL. The parent here is a real process, killed the same way.
const CTE_BOMB = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';
const runnerModule = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'sql-runner.ts')).href;

/** Running, not a zombie: an orphan's exit is reaped by whatever adopted it, which may be slow to (or never) wait. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no procfs (macOS): kill(0) is the answer
  }
};

let fx: FixtureDb;
beforeAll(async () => {
  fx = await sqlFixtureDb();
});
afterAll(() => fx.cleanup());

/** A parent process that starts the runaway query (with a minute of time limit) and prints its child's pid. */
function startParent(dbPath: string): Promise<{ parent: ReturnType<typeof spawn>; childPid: number }> {
  const script = `
    import { SqlRunner } from ${JSON.stringify(runnerModule)};
    const runner = new SqlRunner({ dbPath: ${JSON.stringify(dbPath)}, timeoutMs: 60_000 });
    runner.query(${JSON.stringify(CTE_BOMB)}).catch(() => {});
    const wait = setInterval(() => { if (runner.pid) { console.log('child ' + runner.pid); clearInterval(wait); } }, 20);
  `;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /child (\d+)/.exec(out);
      if (m) resolve({ parent, childPid: Number(m[1]) });
    });
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before starting its console: ${out}`)));
  });
}

describe('the SQL console process does not outlive its server', () => {
  it('exits within 1 s of a SIGKILL of its parent while stuck in a runaway statement', async () => {
    const { parent, childPid } = await startParent(fx.dbPath);
    // The statement is running (the child has had its request for a while, and is busy in SQLite).
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    const killedAt = Date.now();
    while (alive(childPid) && Date.now() - killedAt < 3000) await new Promise((r) => setTimeout(r, 20));
    const goneAfterMs = Date.now() - killedAt;
    if (alive(childPid)) process.kill(childPid, 'SIGKILL');
    expect(goneAfterMs).toBeLessThan(1000);
  }, 30_000);
});
