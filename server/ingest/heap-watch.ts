/**
 * A full collection whenever the used heap passes a limit, checked on a timer. What the ingest worker keeps
 * between batches is under 15 MB, but V8 sizes a heap by how fast it allocates, not by what survives: parse
 * garbage promoted out of the young generation let the old one grow to 150–200 MB between collections at 1.6 GB
 * (issue 19.3). A hard limit (resourceLimits) bounds it too but is fatal to the whole process when a single line
 * needs more than the limit (V8 aborts instead of throwing); this one only collects. When what survives a
 * collection is itself near the limit (one huge line, a big rewrite), the limit moves to twice that, so the
 * worker never collects in a loop.
 */
export class HeapWatch {
  /** the used heap past which the next check collects */
  limit: number;
  /** what survived the last collection (the memory log's figure) */
  liveAfterCollect = 0;

  constructor(
    private readonly o: { floorBytes: number; usedHeap: () => number; collect: () => void },
  ) {
    this.limit = o.floorBytes;
  }

  /** Collects when the used heap is past the limit; returns true when it did. */
  check(): boolean {
    if (this.o.usedHeap() <= this.limit) return false;
    this.o.collect();
    this.liveAfterCollect = this.o.usedHeap();
    this.limit = Math.max(this.o.floorBytes, 2 * this.liveAfterCollect);
    return true;
  }
}
