import type Database from 'better-sqlite3';
import { logBytes, logRestartsNow } from './write-ahead-log';

/**
 * FTS5 indexes merged into one segment once a backfill is over, a bounded step at a time.
 *
 * During a backfill FTS5 merges a level only when 16 of its segments pile up (search-db.ts FTS_MERGE_CONFIG: a
 * quarter less CPU for the search thread), so the 1.6 GiB bench corpus ends with event_text in 44 segments and
 * session_text, file_text and search_index in 9–20. A query reads each of its terms' doclists in every segment:
 * on that archive a phrase search took 27.5 ms (median, in process) and 14.8 once the search file was merged, an
 * identifier fragment 30.4 and 25.2, a rare word 1.4 and 0.4; session_text's match for a title word 2.6 and 0.3.
 * Merging the search file whole costs ~14 CPU s there (1 GB of index rewritten once), done when the backfill has
 * settled, on the thread that writes the file, between its live groups.
 *
 * Each step is FTS5's own 'merge' command with a page budget: the first with a negative budget puts every
 * segment on one level and starts merging them (as 'optimize' does, but bounded); the later ones continue that
 * merge, and only that merge, with a positive budget, so that the small segments live commits add meanwhile do
 * not start it over. A table is done when a step changes nothing (FTS5's documented test: total_changes() moved
 * by less than 2).
 */

/** FTS5 leaf pages (~4 KB each) merged per step: ~60 ms on this machine, the longest a live group then waits. */
export const PAGES_PER_STEP = 1000;

/** Fewer new lines than this since the last merge leave the index as it is (their few segments cost a query nothing). */
export const MIN_GROWTH = 2_000;
/**
 * Each merge rewrites the whole index, so the next is due only once the index has grown by this share of what the
 * last one merged: every line's postings are rewritten a bounded number of times (≤ 1 / GROWTH_SHARE + 1).
 */
export const GROWTH_SHARE = 0.25;

/** Whether an index that holds lines through `through` and was last merged through `mergedThrough` is merged again. */
export function compactionDue(through: number, mergedThrough: number, minGrowth = MIN_GROWTH): boolean {
  const grown = through - mergedThrough;
  return grown >= minGrowth && grown >= GROWTH_SHARE * mergedThrough;
}

/** How long a step waits while the writer holds a transaction open (a live group between its rows and its commit). */
const WAIT_MS = 100;

/**
 * The write-ahead log past which no step runs until it can restart. A merge rewrites the whole index through the
 * log, and a reader's snapshot keeps SQLite from copying what was written after it or starting the log over: the
 * quick_check that serve runs on the search file once a backfill is done (20–40 s at 1.6 GiB) took the search
 * file's log to 1 GB during a merge of it. With this bound a long reader pauses the merge instead.
 */
export const LOG_LIMIT_BYTES = 64 * 1024 * 1024;
/** How often a merge paused by a reader looks again whether the log can restart. */
const LOG_WAIT_MS = 500;

export interface CompactionHooks {
  /** false while a step must not run (the connection is inside a group of the writer's) */
  canStep: () => boolean;
  /** every table is one segment (or nearly: what live commits added meanwhile) */
  onDone: () => void;
  /** a step (or onDone) failed (a full disk, a damaged file): no step runs after it; nothing was lost, FTS5 rolled the step back */
  onError: (err: unknown) => void;
}

/** Merges `tables` (FTS5 tables of `db`) one after another, one step per turn of the event loop. */
export class FtsCompaction {
  private table = 0;
  /** whether the current table's merge was started (by a step with a negative budget) */
  private started = false;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;
  private readonly totalChanges: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly tables: readonly string[],
    private readonly hooks: CompactionHooks,
    private readonly pagesPerStep = PAGES_PER_STEP,
    private readonly logLimitBytes = LOG_LIMIT_BYTES,
  ) {
    this.totalChanges = db.prepare('SELECT total_changes()').pluck();
  }

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.table = 0;
    this.started = false;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = this.immediate = undefined;
  }

  /**
   * One step: false once every table is merged. Exposed for tests, which step by hand; `start` runs the steps
   * with the event loop's other work (the thread's messages) between them.
   */
  step(): boolean {
    while (this.table < this.tables.length) {
      const t = this.tables[this.table];
      const before = this.totalChanges.get() as number;
      // literals: a bound JS number is a REAL, which FTS5 does not take as a page count
      this.db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('merge', ${this.started ? this.pagesPerStep : -this.pagesPerStep})`);
      if ((this.totalChanges.get() as number) - before >= 2) {
        this.started = true; // the next steps of this table continue the merge this one started
        return true;
      }
      this.table++;
      this.started = false;
    }
    return false;
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (delayMs > 0) {
      this.timer = setTimeout(() => this.turn(), delayMs);
      this.timer.unref();
    } else this.immediate = setImmediate(() => this.turn());
  }

  private turn(): void {
    this.timer = this.immediate = undefined;
    if (!this.running) return;
    if (!this.db.open || !this.hooks.canStep()) return this.schedule(WAIT_MS);
    if (logBytes(this.db.name) > this.logLimitBytes && !logRestartsNow(this.db)) return this.schedule(LOG_WAIT_MS);
    try {
      if (this.step()) return this.schedule(0);
      this.running = false;
      this.hooks.onDone();
    } catch (err) {
      this.running = false;
      this.hooks.onError(err);
    }
  }
}
