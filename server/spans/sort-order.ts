/**
 * Indices 0..n-1 ordered by `keys` (integers), ties by index: the order a timeline needs, stable. When the key
 * range times n fits in a double's 53 bits, each (key, index) pair is packed into one number and sorted by
 * the engine's native numeric sort, several times faster than a comparator over 100,000 entries.
 */
export function sortedOrder(keys: ArrayLike<number>): Uint32Array {
  const n = keys.length;
  const out = new Uint32Array(n);
  if (n === 0) return out;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let integral = true;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (k < min) min = k;
    if (k > max) max = k;
    if (!Number.isInteger(k)) integral = false;
  }
  const span = max - min;
  if (integral && Number.isFinite(span) && (span + 1) * n < Number.MAX_SAFE_INTEGER) {
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) packed[i] = (keys[i] - min) * n + i;
    packed.sort();
    for (let i = 0; i < n; i++) out[i] = packed[i] % n;
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = i;
  return out.sort((a, b) => keys[a] - keys[b] || a - b);
}
