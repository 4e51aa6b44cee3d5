/**
 * The memory a file's batches are read into and packed from, reused batch after batch instead of allocated per line.
 *
 * Why: every line used to be copied out of the read buffer into a Buffer of its own, and every archive chunk joined
 * into another (the whole log, twice, as array buffers). Those are freed only when their small JS objects are
 * collected, and they had been promoted with the batch, so they waited for a full collection; the ingest worker's
 * heap watch counts array buffers (heap-watch.ts) and collected every ~16 MB of them. A full collection also kills
 * the hidden classes (maps) of the objects no line keeps alive at that moment, which throws away the optimized code
 * of every hot function that named one (V8's "weak objects" deoptimization): at 1.6 GiB, the recompilations were
 * 13 CPU s of V8's helper threads and the backfill ran 17 s slower with the collections than without them.
 *
 * A slot is the lines buffer a batch's first read goes into (its complete lines are views into it) and the buffer
 * its archive chunks are joined into. Slots are handed out in turn: a batch is read at most one ahead of the batch
 * being written, and nothing of a batch is used once it is written (the store copies the few lines it keeps,
 * `rememberWrittenLine`), so a slot is free again by the time it comes round. A batch read ahead and then dropped (a
 * file turn cut short) may still be deflating on the pool: its result is never used, so its input being reused
 * later does no harm. One ring per writer (IngestStore), whose batches follow one another.
 */
export const SLOT_BYTES = 1024 * 1024;

export interface RingSlot {
  /** where a batch's first read goes; its complete lines are views into it */
  readonly lines: Buffer;
  /** where the batch's archive chunks are joined, from the start; a batch that does not fit allocates instead */
  readonly chunks: Buffer;
}

/**
 * Two are enough for the batch being written and the one read ahead (tail-file.test.ts fails with one); the third
 * keeps a batch dropped mid-deflate out of the way of the next file's first batch.
 */
export const RING_SLOTS = 3;

export class BatchRing {
  private slots: RingSlot[] = [];
  private at = 0;

  /** The next slot in turn (allocated on first use: a writer that never tails a file holds none). */
  next(): RingSlot {
    const i = this.at;
    this.at = (this.at + 1) % RING_SLOTS;
    return (this.slots[i] ??= { lines: Buffer.allocUnsafeSlow(SLOT_BYTES), chunks: Buffer.allocUnsafeSlow(SLOT_BYTES) });
  }

  /**
   * Lets the slots go (an idle worker, worker.ts): the next batch allocates again. Safe at any moment: a batch still
   * holding a slot keeps its buffers alive, and no later batch can be handed the same memory.
   */
  release(): void {
    this.slots = [];
    this.at = 0;
  }
}
