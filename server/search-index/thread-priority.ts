import os from 'node:os';

/**
 * The search thread's nice value. The ingest thread is a backfill's critical path and the search thread has less to
 * do (~35 against ~57 CPU s at 1.6 GiB), but at the same priority the kernel gave the two an even share of a core
 * whenever a third thread (a query, the main thread, a GC helper) wanted one: the ingest thread waited runnable for
 * ~10 s of a 70 s backfill of the 1.6 GiB bench corpus. At 10 it waits ~6 s. The search thread then falls behind
 * while every core is busy, and the ingest thread waits for it once MAX_IN_FLIGHT_CHARS are in flight
 * (search-thread.ts: 4–5 s of such a backfill under the bench's query load at 2 M characters; 4 M took the ingest
 * thread's share of the wall from 80.7 to 84.4%, and 8 M the peak RSS past its target; issue 19.1, docs/CONTRIBUTING.md).
 */
export const SEARCH_THREAD_NICE = 10;

/**
 * Lowers the calling thread's priority to `nice`. Only on Linux, where setpriority(2) of pid 0 is the calling
 * thread's alone; elsewhere it would lower the whole process's, the server's answers with it. False when not done.
 */
export function lowerThisThreadPriority(nice: number, platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    os.setPriority(0, nice);
    return true;
  } catch {
    return false; // not permitted (a sandbox): the thread runs at the process's priority, as before
  }
}
