import fs from 'node:fs';
import os from 'node:os';

/**
 * The nice value of the threads that do a backfill's work: the ingest worker (parse, archive) and the search
 * thread (trigram text). The event loop that answers HTTP and the read worker keep nice 0, so on two cores a
 * burst of requests preempts the backfill instead of sharing the cores with it: in the bench's bursts of 200
 * queries during the 1.6 GiB backfill, /api/health p95 went from 34.6–47.9 to 27.0–28.5 ms and the queries' p95
 * from 113–162 to 103–105 ms (issue 19.4). When nothing else runs a niced thread still gets a whole core: nice
 * only weighs threads that wait for the same core.
 */
export const BACKGROUND_NICE = 5;

/** The kernel's id of the calling thread: /proc/thread-self links to `<pid>/task/<tid>` (Linux); null elsewhere. */
export function currentThreadId(): number | null {
  try {
    const m = /task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's priority to `nice` (Linux's setpriority applies to one thread when given a thread
 * id; elsewhere a process id would lower the whole server, so nothing is done). A thread already at a lower
 * priority keeps it. Returns the thread's nice value after, or null when it could not be read or set: the
 * backfill then runs at the server's priority, as before, and nothing else changes.
 */
export function runInBackground(nice = BACKGROUND_NICE): number | null {
  if (process.platform !== 'linux') return null;
  const tid = currentThreadId();
  if (tid === null || tid === process.pid) return null; // the main thread: never the one answering HTTP
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
