import { hash } from 'node:crypto';

/**
 * The last digest made, kept alive. Why: a digest is a Buffer made in C++, whose hidden class (map) is not the one
 * of the Buffers made in JavaScript; when a full collection finds no such Buffer alive, the map dies, and V8 throws
 * away the optimized code of every function that had seen one ("weak objects"), the ingest's readLines, chunkRanges,
 * promptHash and copyKey among them, to compile them again on the next digest. The ingest worker's heap watch runs
 * full collections on schedule (heap-watch.ts); with one digest always alive those functions were no longer
 * recompiled after each (`--trace-deopt`, a quarter of the bench corpus under its query load: 17 times each before).
 */
let lastDigest: Buffer | null = null;

/** SHA-1 of `text` (UTF-8), in one call (`crypto.hash` costs about half of a createHash object per call). */
export function sha1Digest(text: string): Buffer {
  lastDigest = hash('sha1', text, 'buffer');
  return lastDigest;
}
