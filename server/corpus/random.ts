// Seeded randomness for the corpus. Everything the generator decides goes through an `Rng` so that the
// same seed and size produce byte-identical output on every machine (Math.random is never used).

const HEX_BYTE: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Mixes any number of integers / strings into one 32-bit seed (FNV-1a over the parts, then a finaliser). */
export function hashSeed(...parts: (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = typeof part === 'number' ? String(part) : part;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff; // part separator, so ('ab','c') and ('a','bc') differ
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * mulberry32: one 32-bit word of state, a handful of integer ops per draw. Statistically weak for science but
 * more than enough for synthetic logs, and about as fast as a PRNG can be in JS, which matters at 1 GiB.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** An independent stream for a sub-task, so adding draws in one place does not shift every later draw. */
  fork(...salt: (number | string)[]): Rng {
    return new Rng(hashSeed(this.state, ...salt));
  }

  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks from `[value, weight]` pairs; weights need not sum to 1. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    return items[items.length - 1][0];
  }

  /** Standard normal via Box-Muller (one value per call; the twin is discarded to keep the stream simple). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal with the given median: latencies and sizes are skewed like this in real logs. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential with the given mean (think time between requests). */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** `n` lowercase hex characters (n even is fastest). OTel span ids are 16. */
  hex(n: number): string {
    let s = '';
    while (s.length < n) {
      const w = this.u32();
      s += HEX_BYTE[w & 0xff] + HEX_BYTE[(w >>> 8) & 0xff] + HEX_BYTE[(w >>> 16) & 0xff] + HEX_BYTE[w >>> 24];
    }
    return s.length === n ? s : s.slice(0, n);
  }

  /** A version-4 UUID, the shape of VS Code chat session ids. */
  uuid(): string {
    const h = this.hex(32);
    const variant = '89ab'[this.u32() & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /** Fisher-Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}
