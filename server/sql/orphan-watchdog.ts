import { Worker } from 'node:worker_threads';

/** How often the watchdog looks at the parent: the child is gone within this plus the kill (well under 1 s). */
export const ORPHAN_POLL_MS = 100;

// Inline source, not a file of its own: the bundle then needs no extra entry point for it.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parentPid) process.kill(process.pid, 'SIGKILL');
}, workerData.pollMs);
`;

/**
 * Ends this process when its parent dies, even while the main thread is stuck in a statement. The IPC
 * 'disconnect' event cannot do that: it runs on the event loop, and better-sqlite3 holds the loop for as long as
 * SQLite runs (a recursive CTE: forever, at 100% CPU, its read transaction pinning the WAL so that no
 * checkpoint can reset it). A thread has a loop of its own; an orphan is re-parented (to init or a subreaper),
 * so a changed ppid means the parent is gone. SIGKILL because the main thread cannot run an exit handler.
 */
export function exitWhenOrphaned(pollMs = ORPHAN_POLL_MS): Worker {
  const w = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { parentPid: process.ppid, pollMs } });
  // The watchdog never keeps the process alive by itself.
  w.unref();
  return w;
}
