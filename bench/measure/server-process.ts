import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { timedGet, waitFor } from '../lib/http';
import { MEMORY_LOG_ENV } from '../../server/memory/thread-memory';
import { SERVER_NODE_ARGS, serverEnv } from '../../server/launch-flags';

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
}

/** The built server (`dist/server/main.js`) as users run it, in its own process so its RSS and CPU are its own. */
export async function startServerProcess(opts: {
  roots: string[];
  dbPath: string;
  port: number;
  /** its stderr lines go here (and on to ours) instead of straight to ours */
  onStderrLine?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** every thread of the server writes its memory there (server/memory/thread-memory.ts) */
  memoryLog?: string;
}): Promise<ServerProcess> {
  // Another server on the port (a previous run that died) would answer for ours and every number would be its.
  const taken = await timedGet(`http://127.0.0.1:${opts.port}`, '/api/health').then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`port ${opts.port} is already in use: stop that server or pass --port`);
  const args = [...SERVER_NODE_ARGS, path.resolve('dist/server/main.js'), 'serve', ...opts.roots.flatMap((r) => ['--logs', r]), '--db', opts.dbPath, '--port', String(opts.port)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', opts.onStderrLine ? 'pipe' : 'inherit'], env: serverEnv({ ...process.env, ...opts.env, ...(opts.memoryLog ? { [MEMORY_LOG_ENV]: opts.memoryLog } : {}) }) });
  const onLine = opts.onStderrLine;
  if (onLine && child.stderr) {
    let rest = '';
    child.stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      lines.forEach(onLine);
    });
  }
  // However the benchmark ends, its server ends with it; the listener goes with the server (a bench starts a dozen).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const base = `http://127.0.0.1:${opts.port}`;
  const up = await waitFor(async () => (await timedGet(base, '/api/health')).status === 200, 60_000, 20);
  if (!up) throw new Error('the server did not start within 60 s');
  return {
    child,
    base,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/**
 * Between two polls of /api/ready, with or without load. It was 250 ms once the load was over (or without one):
 * a run then ended up to 250 ms after its backfill did, 125 ms on average, 2.5% of the held-out corpus's ~4.9 s.
 * A poll costs the server well under a millisecond.
 */
export const POLL_MS = 50;

/**
 * Polls /api/ready until the backfill is done and searchable (server/routes/health.ts), POLL_MS apart. During the
 * first `loadMs` after `t0`, each poll is followed by the `loadPaths` requests one after another (their times go to
 * `onLoad`, with how the server answered: timedGet's `cache`). `onPoll` runs after every poll, the last one
 * included; `until` ends the wait early.
 */
export async function awaitBackfill(
  base: string,
  t0: number,
  o: { loadPaths: string[]; loadMs: number; onLoad?: (ms: number, cache: string | null) => void; onPoll?: () => Promise<void>; until?: () => boolean },
): Promise<void> {
  for (;;) {
    const ready = (await timedGet(base, '/api/ready')).status === 200;
    await o.onPoll?.();
    if (ready || o.until?.()) return;
    const loaded = performance.now() - t0 < o.loadMs;
    // Each request is made whether or not its time is wanted: `o.onLoad?.(await …)` skipped the whole call, the
    // request with it, when there was no onLoad, and so the 0.25× backfill ran without the query load its row claims.
    if (loaded)
      for (const p of o.loadPaths) {
        const { ms, cache } = await timedGet(base, p);
        o.onLoad?.(ms, cache);
      }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
