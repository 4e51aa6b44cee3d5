/**
 * Calls `trim` (malloc-trim.ts) once the server has been quiet for `quietMs` after some activity: an API request,
 * or a commit of the ingest. What a burst of requests or a live session's writes freed in the malloc arena (span trees
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
