/**
 * A full collection whenever the used heap passes a limit, checked on a timer. What the ingest worker keeps
 * between batches is under 15 MB, but V8 sizes a heap by how fast it allocates, not by what survives: parse
 * garbage promoted out of the young generation let the old one grow to 150–200 MB between collections at 1.6 GB
 * (issue 19.3). A hard limit (resourceLimits) bounds it too but is fatal to the whole process when a single line
 * needs more than the limit (V8 aborts instead of throwing); this one only collects. The limit is what survived
 * the last collection plus `headroomBytes` of garbage (never below `floorBytes`): what survives grows with the
 * files and folders followed (~50 MB live at 1.6 GB with 3,600 Copilot CLI session folders, against ~20 MB at a
 * quarter), and a fixed limit near it would collect in a loop.
 */
export class HeapWatch {
  /** the used heap past which the next check collects */
  limit: number;
  /** what survived the last collection (the memory log's figure) */
  liveAfterCollect = 0;

  constructor(
    private readonly o: { floorBytes: number; headroomBytes: number; usedHeap: () => number; collect: () => void },
  ) {
    this.limit = o.floorBytes;
  }

  /** Collects when the used heap is past the limit; returns true when it did. */
  check(): boolean {
    if (this.o.usedHeap() <= this.limit) return false;
    this.o.collect();
    this.liveAfterCollect = this.o.usedHeap();
    this.limit = Math.max(this.o.floorBytes, this.liveAfterCollect + this.o.headroomBytes);
    return true;
  }
}
