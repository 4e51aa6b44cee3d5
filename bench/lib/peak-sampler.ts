/**
 * Samples `measure` every `everyMs` until stopped; `stop` returns the largest value seen (one last sample included),
 * `peakAt` when it was seen (Date.now() time). The RSS of the server's process tree (process-tree.ts) and the index
 * on disk (disk-use.ts) are both followed this way through a backfill.
 */
export function peakSampler(measure: () => number, everyMs: number): { stop(): number; peakAt(): number } {
  let peak = measure();
  let at = Date.now();
  const sample = () => {
    const v = measure();
    if (v > peak) [peak, at] = [v, Date.now()];
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
    peakAt: () => at,
  };
}
