/** What every percentile in the triage API means; also the UI tooltip. */
export const PERCENTILE_DEFINITION =
  'Exact nearest-rank percentiles over every canonical call in the window: the p-th percentile of n values is the ' +
  'value at rank ceil(p × n / 100) in ascending order (p50 of 1,2,3,4 is 2; p99 of fewer than 100 values is the maximum). ' +
  'Replayed and broadcast copies are not counted.';

/** The 0-based index of the nearest-rank p-th percentile among n sorted values (n ≥ 1, 0 < p ≤ 100). */
export function nearestRankIndex(p: number, n: number): number {
  // p × n is an exact integer for integer p, so the division is exact or at least 1/100 away from an integer:
  // no floating-point edge can move the ceiling.
  return Math.min(n - 1, Math.max(0, Math.ceil((p * n) / 100) - 1));
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

/**
 * Rearranges a[lo..hi] (inclusive) so that a[k] holds the value it would hold if the range were sorted, with
 * every value before k ≤ a[k] ≤ every value after. Quickselect with a median-of-three pivot and a
 * three-way partition (durations repeat a lot), expected O(hi − lo).
 */
export function selectKth(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    if (hi - lo < 16) {
      // insertion sort: small ranges
      for (let i = lo + 1; i <= hi; i++) {
        const v = a[i];
        let j = i - 1;
        while (j >= lo && a[j] > v) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
      return;
    }
    const mid = (lo + hi) >>> 1;
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    // Dutch flag: [lo, lt) < pivot, [lt, i) = pivot, (gt, hi] > pivot
    let lt = lo;
    let gt = hi;
    let i = lo;
    while (i <= gt) {
      const v = a[i];
      if (v < pivot) swap(a, lt++, i++);
      else if (v > pivot) swap(a, i, gt--);
      else i++;
    }
    if (k < lt) hi = lt - 1;
    else if (k > gt) lo = gt + 1;
    else return;
  }
}

export interface PercentileSet {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/**
 * Nearest-rank p50 / p90 / p99 and the maximum of a[from..to) (reordered in place). Each selection works on
 * the part right of the previous one, so the three together cost about two passes over the range.
 */
export function percentilesInPlace(a: Float64Array, from: number, to: number): PercentileSet | null {
  const n = to - from;
  if (n <= 0) return null;
  const last = to - 1;
  const k50 = from + nearestRankIndex(50, n);
  const k90 = from + nearestRankIndex(90, n);
  const k99 = from + nearestRankIndex(99, n);
  selectKth(a, from, last, k50);
  selectKth(a, k50, last, k90);
  selectKth(a, k90, last, k99);
  let max = a[k99];
  for (let i = k99 + 1; i <= last; i++) if (a[i] > max) max = a[i];
  return { p50: a[k50], p90: a[k90], p99: a[k99], max };
}

/** The same for a plain list (tests, small inputs). */
export function percentiles(values: readonly number[]): PercentileSet | null {
  const a = Float64Array.from(values);
  return percentilesInPlace(a, 0, a.length);
}
