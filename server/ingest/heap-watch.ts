import v8 from 'node:v8';

/**
 * What the ingest worker's collections are for: its old generation and the memory array buffers hold outside the
 * heap (every line's bytes are a Buffer). The young generation is not counted: it is bounded by its own size and
 * emptied by scavenges, and counted (24 MB of it since young-generation.ts) it set off full collections that found
 * little in the old generation to collect. The buffers of the batches written are garbage once written, but they are
 * promoted with the objects that point at them and freed only by a full collection; counted as heap alone they
 * swung between 2 and 54 MB at 1.6 GB (the memory log's array buffers), on top of the heap's own headroom. The
 * allocator's own count (memoryUsage().arrayBuffers), not V8's external_memory: that one is brought up to date
 * only by the next collection, so it still counted every freed buffer as in use.
 */
export function oldGenerationAndBuffersInUse(): number {
  let used = 0;
  for (const space of v8.getHeapSpaceStatistics()) if (!YOUNG_SPACES.has(space.space_name)) used += space.space_used_size;
  return used + process.memoryUsage().arrayBuffers;
}

const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/**
 * A full collection whenever the memory in use (`inUse`) passes a limit, checked on a timer. What the ingest worker keeps
 * between batches is under 15 MB, but V8 sizes a heap by how fast it allocates, not by what survives: parse
 * garbage promoted out of the young generation let the old one grow to 150–200 MB between collections at 1.6 GB
 * (issue 19.3). A hard limit (resourceLimits) bounds it too but is fatal to the whole process when a single line
 * needs more than the limit (V8 aborts instead of throwing); this one only collects. The limit is what survived
 * the last collection plus `headroomBytes` of garbage (never below `floorBytes`): what survives grows with the
 * files and folders followed (~50 MB live at 1.6 GB with 3,600 Copilot CLI session folders, against ~20 MB at a
 * quarter), and a fixed limit near it would collect in a loop.
 */
export class HeapWatch {
  /** the memory in use past which the next check collects */
  limit: number;
  /** what survived the last collection (the memory log's figure) */
  liveAfterCollect = 0;
  /** a collection ran at the last check: what survived it is read at this one */
  private settling = false;

  constructor(
    /** `headroomBytes`: a number, or asked again at every check (budgetedHeadroom) */
    private readonly o: { floorBytes: number; headroomBytes: number | (() => number); inUse: () => number; collect: () => void },
  ) {
    this.limit = o.floorBytes;
  }

  /** the memory in use at the last check */
  lastInUse = 0;

  /** Collects when the memory in use is past the limit; returns true when it did. */
  check(): boolean {
    const inUse = this.o.inUse();
    this.lastInUse = inUse;
    if (this.settling) {
      // An array buffer's memory is freed by a sweeper task after the collection returns: what survived is known
      // only now (a limit set from the figure right after it stood tens of MB too high, and nothing was collected
      // again). Measured at the next check, it counts that check's few new allocations as surviving.
      this.settling = false;
      this.liveAfterCollect = Math.min(this.liveAfterCollect, inUse);
    }
    this.limit = this.limitFor(this.liveAfterCollect);
    if (inUse <= this.limit) return false;
    this.collect();
    return true;
  }

  /**
   * A full collection now, whatever the memory in use (the backfill over, the worker idle): what survives it sets
   * the limit, as after one of the watch's own, instead of the busiest moment's figure staying the limit's base.
   */
  collect(): void {
    this.o.collect();
    this.liveAfterCollect = this.o.inUse();
    this.limit = this.limitFor(this.liveAfterCollect);
    this.settling = true;
  }

  private limitFor(live: number): number {
    const headroom = typeof this.o.headroomBytes === 'number' ? this.o.headroomBytes : this.o.headroomBytes();
    return Math.max(this.o.floorBytes, live + headroom);
  }
}

/**
 * A headroom that follows the process's memory (`rss()`): `max` while the process is well under `budget`, shrinking
 * to `min` as it nears it. Every full collection of the ingest worker costs more than its own time: it kills the
 * hidden classes of the objects no line keeps alive, and V8 throws away the optimized code of every hot function
 * that named one ("weak objects"), to compile it again on the other core (10 of 16 CPU s of V8's helper threads at
 * 1.6 GiB) while the ingest thread runs it unoptimized. With a fixed 16 MB headroom a 1.6 GiB backfill collected
 * ~100 times: 81.7 s and 126 CPU s against 74.8 s and 115 CPU s without the collections (no query load, one run each),
 * but a peak RSS of 308 MB instead of 222. So the garbage is kept only while the process has room for it.
 */
export function budgetedHeadroom(o: { rss: () => number; budget: number; min: number; max: number }): () => number {
  return () => Math.min(o.max, Math.max(o.min, o.budget - o.rss()));
}

/**
 * Checks `watch` every `busyMs` while the memory in use moves, every `quietMs` once it has stayed within
 * `quietBytes` for `quietAfter` checks in a row (an idle server: no batch read, nothing allocated). Ten checks a
 * second cost an idle server's ingest worker ~0.3 s of CPU a minute (each reads the heap's spaces and the
 * allocator's counts, and wakes the thread), about half of the server's idle CPU; a backfill or a burst of appends
 * moves the figure at once and is checked ten times a second again from its first second on. Returns a stop.
 */
export function scheduleChecks(
  watch: Pick<HeapWatch, 'check' | 'lastInUse'>,
  o: { busyMs: number; quietMs: number; quietAfter: number; quietBytes: number },
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (t: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms).unref(),
    clear: (t) => clearTimeout(t as NodeJS.Timeout),
  },
): () => void {
  let quiet = 0;
  let previous: number | null = null;
  let timer: unknown = null;
  const tick = () => {
    const collected = watch.check();
    const now = watch.lastInUse;
    quiet = !collected && previous !== null && Math.abs(now - previous) <= o.quietBytes ? quiet + 1 : 0;
    previous = now;
    timer = timers.set(tick, quiet >= o.quietAfter ? o.quietMs : o.busyMs);
  };
  timer = timers.set(tick, o.busyMs);
  return () => timers.clear(timer);
}
