/** Where `value` is in `sorted` (ascending, no repeats), by binary search; null when it is not there. */
export function positionIn(sorted: ArrayLike<number>, value: number): number | null {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] === value) return mid;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}
