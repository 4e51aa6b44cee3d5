import fs from 'node:fs';
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

/**
 * Where the memory goes while the server runs (issue 19.3): with CHRONOSCOPE_MEMORY_LOG=<file> set, every thread
 * that calls `reportThreadMemory` appends one JSON line per sample to that file (O_APPEND: the lines of different
 * threads never interleave), and the main thread adds the process's resident set split by kind
 * (/proc/self/smaps_rollup, /proc/self/status) and its anonymous mappings by size. `bench/measure/memory-log.ts`
 * reads the samples next to the moment of the peak. Unset, nothing runs.
 */
export const MEMORY_LOG_ENV = 'CHRONOSCOPE_MEMORY_LOG';
/** A file the ingest worker writes its heap snapshot to when the backfill ends (bench/measure/memory-probe.ts). */
export const HEAP_SNAPSHOT_ENV = 'CHRONOSCOPE_HEAP_SNAPSHOT';
/** Milliseconds between samples (default 500). */
export const MEMORY_LOG_MS_ENV = 'CHRONOSCOPE_MEMORY_LOG_MS';

export interface ThreadSample {
  thread: string;
  at: number;
  /** process.memoryUsage() (rss is the whole process's: threads share it) */
  usage: NodeJS.MemoryUsage;
  heap: {
    totalHeapSize: number;
    usedHeapSize: number;
    mallocedMemory: number;
    externalMemory: number;
    /** committed bytes of the young generation (new space and its large objects): sized by V8, not by what survives */
    youngSize?: number;
  };
  /** byte counts of what this thread holds by name (the triage model, caches) */
  holds: Record<string, number>;
  /** main thread only */
  process?: ProcessMemory;
}

export interface ProcessMemory {
  /** smaps_rollup and status fields, in bytes */
  rss: number;
  rssAnon: number;
  rssFile: number;
  /** anonymous mappings' resident bytes, largest first (12), and the rest summed */
  anonLargest: { kb: number; sizeKb: number }[];
  anonRestKb: number;
  anonCount: number;
  /** false when the mappings were not walked (RSS below its last high): the anon fields are then empty */
  mappings?: boolean;
}

const kb = (text: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;

/** The highest RSS a sample has walked the mappings at (processMemory). */
let walkedAtRss = 0;

/**
 * The process's resident memory by kind and its anonymous mappings by size (Linux; null elsewhere). The mappings
 * only when RSS is at a new high (what the bench's notes ask for: where the memory was at each peak): reading
 * /proc/self/smaps walks every page table, and twice a second it cost an idle server 3% of a core. `always`: walk anyway.
 */
export function processMemory(o: { always?: boolean } = {}): ProcessMemory | null {
  let status: string;
  let smaps = '';
  try {
    status = fs.readFileSync('/proc/self/status', 'utf8');
    const rss = kb(status, 'VmRSS');
    if (o.always || rss > walkedAtRss) {
      walkedAtRss = rss;
      smaps = fs.readFileSync('/proc/self/smaps', 'utf8');
    }
  } catch {
    return null;
  }
  const anon: { kb: number; sizeKb: number }[] = [];
  let current: { anonymous: boolean; sizeKb: number } | null = null;
  for (const line of smaps.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1];
      current = { anonymous: name === '' || name === '[heap]' || name.startsWith('[anon'), sizeKb: 0 };
      continue;
    }
    if (!current?.anonymous) continue;
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size) current.sizeKb = Number(size[1]);
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && Number(rss[1]) > 0) anon.push({ kb: Number(rss[1]), sizeKb: current.sizeKb });
  }
  anon.sort((a, b) => b.kb - a.kb);
  return {
    rss: kb(status, 'VmRSS'),
    rssAnon: kb(status, 'RssAnon'),
    rssFile: kb(status, 'RssFile'),
    anonLargest: anon.slice(0, 12),
    anonRestKb: anon.slice(12).reduce((n, a) => n + a.kb, 0),
    anonCount: anon.length,
    mappings: smaps !== '',
  };
}

export function threadSample(thread: string, holds: () => Record<string, number>): ThreadSample {
  const h = v8.getHeapStatistics();
  const youngSize = v8
    .getHeapSpaceStatistics()
    .filter((sp) => sp.space_name === 'new_space' || sp.space_name === 'new_large_object_space')
    .reduce((n, sp) => n + sp.space_size, 0);
  let held: Record<string, number> = {};
  try {
    held = holds();
  } catch {
    /* a closed connection: nothing held to count */
  }
  const s: ThreadSample = {
    thread,
    at: Date.now(),
    usage: process.memoryUsage(),
    heap: { totalHeapSize: h.total_heap_size, usedHeapSize: h.used_heap_size, mallocedMemory: h.malloced_memory, externalMemory: h.external_memory, youngSize },
    holds: held,
  };
  if (isMainThread) s.process = processMemory() ?? undefined;
  return s;
}

/** Starts this thread's samples when CHRONOSCOPE_MEMORY_LOG is set; `holds` names the byte counts it adds. */
export function reportThreadMemory(thread: string, holds: () => Record<string, number> = () => ({})): void {
  const file = process.env[MEMORY_LOG_ENV];
  if (!file) return;
  const every = Number(process.env[MEMORY_LOG_MS_ENV] ?? 500);
  const write = () => {
    try {
      fs.appendFileSync(file, JSON.stringify(threadSample(thread, holds)) + '\n');
    } catch {
      /* a diagnostic never takes the server down */
    }
  };
  write();
  setInterval(write, every).unref();
}
