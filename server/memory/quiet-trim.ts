/**
 * Calls `trim` (a full collection, then malloc-trim.ts) once a thread has been quiet for `quietMs` after some activity:
 * on the main thread an API request or a commit of the ingest; in the workers their own work (IDLE_RELEASE_MS). What a burst of requests or a live session's writes freed in the malloc arena (span trees
 * loaded, searches, answers written) goes back to the system then, instead of staying with an idle server; while
 * requests or commits keep coming (a backfill commits every few seconds) it waits, and without activity it never
 * runs again. One timer, re-armed for what is left of the quiet period, not one per request.
 */
export class QuietTrim {
  private last = 0;
  /** armed by an activity, cleared once it has trimmed: a trim is due exactly while it is set */
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly trim: () => void,
    private readonly quietMs = QUIET_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  activity(): void {
    this.last = this.clock();
    if (this.timer === null) this.arm(this.quietMs);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    const quiet = this.clock() - this.last;
    if (quiet < this.quietMs) return this.arm(this.quietMs - quiet);
    this.trim();
  }
}

/** Long enough that a page's requests, or a live session's commits, come inside it; short next to an idle hour. */
export const QUIET_MS = 10_000;

/**
 * The quiet period of a worker thread that gives back its heap too (a full collection, then the trim). V8 shrinks a
 * young generation it grew for a burst of allocation only at a collection that finds the allocation rate low, and it
 * measures that rate over the last 5 s: a collection right after a backfill left the ingest worker's 16–33 MB young
 * generation committed, one 6 s later shrank it to 1 MB (and the old generation to what is live). V8's own memory
 * reducer did it too, but 40 s after the backfill, while the archive's merges kept the worker busy.
 */
export const IDLE_RELEASE_MS = 6_000;
