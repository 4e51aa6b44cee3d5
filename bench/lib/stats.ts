/** Nearest-rank percentile of a sample (p in 0..100); NaN for an empty sample. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

export const median = (values: number[]): number => percentile(values, 50);

export interface Timing {
  runs: number;
  p50: number;
  p95: number;
}

export function summarize(ms: number[]): Timing {
  return { runs: ms.length, p50: median(ms), p95: percentile(ms, 95) };
}

export const round = (n: number, digits = 1): number => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);
