import fs from 'node:fs';
import { peakSampler } from './peak-sampler';

/** The pid and every descendant, from /proc (Linux); just the pid elsewhere. */
function descendants(pid: number): number[] {
  const out = [pid];
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return out;
  }
  const parentOf = new Map<number, number>();
  for (const e of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(e), ppid);
    } catch {
      /* exited */
    }
  }
  for (let i = 0; i < out.length; i++) for (const [child, parent] of parentOf) if (parent === out[i]) out.push(child);
  return out;
}

/** Resident memory of a process tree in bytes (threads share their process's RSS). */
export function treeRss(pid: number): number {
  let total = 0;
  for (const p of descendants(pid)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      /* exited */
    }
  }
  return total;
}

/** CPU seconds (user + system) used so far by a process tree. */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  for (const p of descendants(pid)) total += statCpuSeconds(`/proc/${p}/stat`) ?? 0;
  return total;
}

/** User + system CPU seconds from a /proc stat file (a process's or a thread's); null when it has exited. */
function statCpuSeconds(statPath: string): number | null {
  const tick = 100; // USER_HZ on Linux
  try {
    const stat = fs.readFileSync(statPath, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / tick;
  } catch {
    return null; // exited
  }
}

/**
 * CPU seconds of each thread of process `pid` (user + system), in thread-id order: the main thread first, then V8's
 * and libuv's helpers, then the worker threads in the order they were made. Node names them all "node", so a
 * thread is told by its place and its share (the ingest worker is the busiest, the search thread next).
 */
export function threadCpuSeconds(pid: number): { tid: number; seconds: number }[] {
  return perThread(pid, (task) => {
    const seconds = statCpuSeconds(`${task}/stat`);
    return seconds === null ? null : { seconds };
  });
}

/** `read` of each thread's /proc task folder, with its thread id, in thread-id order; threads it gives null for are left out. */
function perThread<T extends object>(pid: number, read: (taskDir: string) => T | null): ({ tid: number } & T)[] {
  const out: ({ tid: number } & T)[] = [];
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    const r = read(`/proc/${pid}/task/${t}`);
    if (r !== null) out.push({ tid: Number(t), ...r });
  }
  return out.sort((a, b) => a.tid - b.tid);
}

/**
 * A thread's line of /proc/PID/task/TID/schedstat (Linux): the nanoseconds it ran on a CPU, then those it was
 * runnable but waiting for one (then its time slices). Null for anything else.
 */
export function parseSchedstat(text: string): { runningSeconds: number; waitingSeconds: number } | null {
  const f = text.trim().split(/\s+/);
  if (f.length < 2 || !/^\d+$/.test(f[0]) || !/^\d+$/.test(f[1])) return null;
  return { runningSeconds: Number(f[0]) / 1e9, waitingSeconds: Number(f[1]) / 1e9 };
}

/**
 * Each thread's time since it started, split as the scheduler counts it: running on a CPU, and runnable but waiting
 * for one (a core taken by another thread); the rest of its life it was blocked (a wait, a read, an idle event loop).
 * In thread-id order, like threadCpuSeconds. What the ingest thread's wall is made of besides its own work
 * (docs/CONTRIBUTING.md, "A new host"): empty where /proc has no schedstat.
 */
export function threadSchedSeconds(pid: number): { tid: number; runningSeconds: number; waitingSeconds: number }[] {
  return perThread(pid, (task) => {
    try {
      return parseSchedstat(fs.readFileSync(`${task}/schedstat`, 'utf8'));
    } catch {
      return null; // exited, or no schedstat
    }
  });
}

/** Samples the tree's RSS every `everyMs` until stopped; returns the peak (`peakAt`: when, in Date.now() time). */
export function rssSampler(pid: number, everyMs = 100): { stop(): number; peakAt(): number } {
  return peakSampler(() => treeRss(pid), everyMs);
}
