import { Worker } from 'node:worker_threads';

/** How often the watchdog looks: an orphan is gone within this plus the kill (well under the 1 s asked). */
export const WATCHDOG_POLL_MS = 100;

/**
 * The console process's memory cap (resident set). Its connection keeps temporary tables and sorts in memory
 * (`temp_store = MEMORY`), so this also caps the temporary space of a statement: an ORDER BY over a big join
 * wrote 1.2 GB of temp files in 5 s before. SQLite's own bounds cannot do it in this build: better-sqlite3
 * compiles with SQLITE_DEFAULT_MEMSTATUS=0, which disables `hard_heap_limit`/`soft_heap_limit`, and no
 * SQLITE_LIMIT_* bounds temporary storage. ~60 MB of it is node and the page cache; the rest is for the sort.
 */
export const CONSOLE_MAX_RSS_BYTES = 256 * 2 ** 20;

/**
 * The signal the watchdog ends the process with when it passes the memory cap, so that the server can tell that
 * apart from a crash (SIGKILL, SIGSEGV) and say why. Node leaves SIGUSR2 at its default action (terminate)
 * unless a listener is installed, and the console process installs none.
 */
export const MEMORY_CAP_SIGNAL = 'SIGUSR2';

// Inline source, not a file of its own: the bundle then needs no extra entry point for it.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parentPid) process.kill(process.pid, 'SIGKILL');
  else if (process.memoryUsage.rss() > workerData.maxRss) process.kill(process.pid, workerData.capSignal);
}, workerData.pollMs);
`;

/**
 * Watches the console process from a thread of its own, because the main thread cannot: better-sqlite3 holds
 * the event loop for as long as SQLite runs a statement (a recursive CTE: forever, at 100% CPU, its read
 * transaction pinning the WAL so that no checkpoint can reset it). Two ends:
 * - the parent died (a SIGKILLed server runs no exit handler, and IPC 'disconnect' is an event-loop event):
 *   an orphan is re-parented (to init or a subreaper), so a changed ppid means the parent is gone → SIGKILL;
 * - the process passed `maxRss` → MEMORY_CAP_SIGNAL, which sql-runner.ts reports as `sql_too_big`.
 */
export function startConsoleWatchdog(maxRss = CONSOLE_MAX_RSS_BYTES, pollMs = WATCHDOG_POLL_MS): Worker {
  const w = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { parentPid: process.ppid, maxRss, pollMs, capSignal: MEMORY_CAP_SIGNAL } });
  // The watchdog never keeps the process alive by itself.
  w.unref();
  return w;
}
