import { COMPUTED, timedGet } from '../lib/http';
import { treeRss } from '../lib/process-tree';
import { median } from '../lib/stats';

export interface SteadyRss {
  /** idle: median and largest of samples every 100 ms */
  idle: { median: number; max: number };
  /** peak while the query paths ran one after another, and how many requests that was */
  underLoad: { peak: number; requests: number; peakAt: number };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The server's memory once the backfill is over (issue 19.3 asks for it beside the backfill's peak): its tree's
 * RSS while idle for `idleMs` (after `settleMs`, the post-backfill checkpoint and check), then its peak while
 * `paths` are requested in turn for `loadMs`: what a user's machine keeps paying after the first run.
 */
export async function steadyRss(o: { base: string; pid: number; paths: string[]; settleMs?: number; idleMs?: number; loadMs?: number }): Promise<SteadyRss> {
  await sleep(o.settleMs ?? 5_000);
  const samples: number[] = [];
  const idleUntil = performance.now() + (o.idleMs ?? 10_000);
  while (performance.now() < idleUntil) {
    samples.push(treeRss(o.pid));
    await sleep(100);
  }
  let peak = treeRss(o.pid);
  let peakAt = Date.now();
  const sample = () => {
    const r = treeRss(o.pid);
    if (r > peak) [peak, peakAt] = [r, Date.now()];
  };
  const timer = setInterval(sample, 100);
  let requests = 0;
  const loadUntil = performance.now() + (o.loadMs ?? 20_000);
  try {
    while (performance.now() < loadUntil) {
      for (const p of o.paths) {
        // computed, as the query rows time them: a reused answer allocates next to nothing
        await timedGet(o.base, p, { headers: COMPUTED });
        requests++;
      }
    }
  } finally {
    clearInterval(timer);
  }
  sample();
  return { idle: { median: median(samples), max: Math.max(...samples) }, underLoad: { peak, requests, peakAt } };
}
