/**
 * A map from whole numbers (0 ≤ key < 2^53) to row indexes (0 ≤ value < 2^31) in two typed arrays, open addressing
 * with linear probing. The span tree looks up the owner of every span id three ways (span-tree.ts) for every entry
 * of a session family: as three Maps those held ~40 MB of heap for the 254k-event family of the bench (an entry of
 * a Map is a few words, and a composite key past 2^31 a HeapNumber of its own), all of it garbage a moment later,
 * and the read worker's heap kept the high-water mark. Here an entry is 12 bytes at a load of at most one half.
 */
export class NumberKeyMap {
  private keys: Float64Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 16) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Float64Array(capacity).fill(Number.NaN);
    this.values = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  get size(): number {
    return this.count;
  }

  get(key: number): number | undefined {
    const at = this.slotOf(key);
    return Number.isNaN(this.keys[at]) ? undefined : this.values[at];
  }

  has(key: number): boolean {
    return !Number.isNaN(this.keys[this.slotOf(key)]);
  }

  set(key: number, value: number): void {
    let at = this.slotOf(key);
    if (Number.isNaN(this.keys[at])) {
      if ((this.count + 1) * 2 > this.keys.length) {
        this.grow();
        at = this.slotOf(key);
      }
      this.keys[at] = key;
      this.count++;
    }
    this.values[at] = value;
  }

  /** Empties the map and gives its arrays back (a map of a finished build must not hold them while the rest runs). */
  clear(): void {
    this.keys = new Float64Array(16).fill(Number.NaN);
    this.values = new Int32Array(16);
    this.mask = 15;
    this.count = 0;
  }

  /** The slot holding `key`, or the empty slot where it would go. */
  private slotOf(key: number): number {
    // The key's two 32-bit halves mixed (Fibonacci hashing): counters and composite keys are dense in their low bits.
    const lo = key % 4294967296;
    const hi = (key - lo) / 4294967296;
    let at = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0;
    at = (at ^ (at >>> 15)) & this.mask;
    const keys = this.keys;
    while (!Number.isNaN(keys[at]) && keys[at] !== key) at = (at + 1) & this.mask;
    return at;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Float64Array(keys.length * 2).fill(Number.NaN);
    this.values = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < keys.length; i++) if (!Number.isNaN(keys[i])) this.set(keys[i], values[i]);
  }
}
