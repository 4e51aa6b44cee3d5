import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';

/**
 * One worker thread, the ingest worker, gets the young generation its `resourceLimits` ask for, although the process
 * is started with `--max-semi-space-size` (server/launch-flags.ts: 4 MB semi-spaces, for the main thread's RSS).
 *
 * Why: V8 takes that flag over every worker's `resourceLimits`, so the ingest worker had 4 MB semi-spaces too. It
 * then scavenged every ~4 MB of allocation, and whatever lived through two scavenges (a batch's lines, a commit
 * group's search rows) was promoted: 303 MB promoted for a 430 MB backfill (`--trace-gc-nvp`), which its heap watch
 * collected again and again with full collections, each throwing away the optimized code of its hot functions
 * (heap-watch.ts). With the 8 MB semi-spaces its limits ask for: 149 MB promoted, and the 1.6 GiB backfill under the
 * bench's load 105.0 / 103.2 → 85.6 / 89.6 s, alternated runs (supervise-worker.ts has the sizes tried).
 *
 * How: V8 reads the flag when a thread's isolate is made, on that thread, after `new Worker` has returned. The flag
 * is set to 0 ("take the resource limits") just before the ingest worker is made, and set back by the worker's first
 * statement (`restoreLaunchSemiSpace`, before it makes the search thread) and by this thread once the worker is
 * online. Until then no other worker may be made on this thread (it would get 0 too): the read pool and the index
 * check wait for `youngGenerationSettling()`.
 */

const FLAG = /^--max[-_]semi[-_]space[-_]size=(\d+)$/;

/** The semi-space size, in MB, this process was started with (0: none, each isolate's resource limits hold). */
export function launchSemiSpaceMb(execArgv: readonly string[] = process.execArgv): number {
  let mb = 0;
  for (const a of execArgv) {
    const m = FLAG.exec(a);
    if (m) mb = Number(m[1]);
  }
  return mb;
}

let settling: Promise<void> | null = null;

const setSemiSpaceMb = (mb: number) => v8.setFlagsFromString(`--max-semi-space-size=${mb}`);

/**
 * Makes a worker (`spawn`) whose isolate takes its `resourceLimits`' young generation rather than the launch flag's.
 * A process started without the flag needs nothing: `spawn` alone.
 */
export function spawnWithOwnYoungGeneration(spawn: () => Worker): Worker {
  const launch = launchSemiSpaceMb();
  if (launch === 0) return spawn();
  setSemiSpaceMb(0);
  let w: Worker;
  try {
    w = spawn();
  } catch (err) {
    setSemiSpaceMb(launch);
    throw err;
  }
  const done = new Promise<void>((resolve) => {
    const restore = () => {
      setSemiSpaceMb(launch);
      if (settling === done) settling = null;
      resolve();
    };
    // 'online': the worker runs JavaScript, so its isolate (and heap) exists; 'exit'/'error': it never will.
    w.once('online', restore);
    w.once('exit', restore);
    w.once('error', restore);
  });
  settling = done;
  return w;
}

/** Null when another worker may be made now; else what to wait for first (spawnWithOwnYoungGeneration). */
export function youngGenerationSettling(): Promise<void> | null {
  return settling;
}

/**
 * The first statement of a worker made by spawnWithOwnYoungGeneration: the flag back to the launch value before this
 * worker makes threads of its own (the ingest worker's search thread), which must not get its young generation.
 */
export function restoreLaunchSemiSpace(): void {
  const launch = launchSemiSpaceMb();
  if (launch !== 0) setSemiSpaceMb(launch);
}
