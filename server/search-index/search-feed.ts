import { CatchUpRetry } from './catch-up-retry';
import { SearchWriter, type SearchWriterStatus } from './search-writer';

/**
 * One event's search input: its indexed text (processLine's text and cjk) and, for the de-duplication of prompt
 * strings (session-prompts.ts), its session, whether its text repeats in later prompts and its prompt as written.
 */
export interface SearchRow {
  id: number;
  /** sessionKeyOf(the session id of the event's file) */
  sessionKey: number;
  text: string;
  cjk: string;
  said: boolean;
  promptParts: readonly string[];
}

/**
 * How the ingest hands each event's search text to the search file's writer (search-writer.ts), in the order
 * it writes: rows as they are written, then "committed through N" after its COMMIT or "rolled back".
 * `search-thread.ts` runs the writer in a thread of its own (the server, `chronoscope index`, the bench);
 * `InlineSearchFeed` runs the same writer on the caller's thread (unit tests' fixtures, where a thread per
 * test database would cost more than the indexing).
 */
export interface SearchFeed {
  /** event `id`'s search input (SearchRow), in the order the ingest writes the events */
  add(id: number, sessionKey: number, text: string, cjk: string, said: boolean, promptParts: readonly string[]): void;
  /** the archive committed every line through `through` */
  committed(through: number): void;
  rolledBack(): void;
  /** resolves when the rows handed over but not yet written are few enough to hand over more */
  room(): Promise<void>;
  /** resolves once search has committed every event through `through` (what "indexed" promises a client) */
  whenIndexed(through: number): Promise<void>;
  readonly status: SearchWriterStatus;
  close(): Promise<void>;
}

/** Promises that resolve once the search mark reaches what each waits for. */
export class MarkWaiters {
  private waiting: { through: number; resolve: () => void }[] = [];

  wait(through: number, reached: number): Promise<void> {
    if (reached >= through) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ through, resolve }));
  }

  reached(mark: number): void {
    if (this.waiting.length === 0) return;
    const still: typeof this.waiting = [];
    for (const w of this.waiting) {
      if (w.through <= mark) w.resolve();
      else still.push(w);
    }
    this.waiting = still;
  }

  /** On close: nothing more will be indexed by this feed. */
  releaseAll(): void {
    for (const w of this.waiting.splice(0)) w.resolve();
  }
}

/** The search writer on the caller's thread, with the same retries as the thread's (search-thread-main.ts). */
export class InlineSearchFeed implements SearchFeed {
  private writer: SearchWriter;
  private rows: SearchRow[] = [];
  private waiters = new MarkWaiters();
  private retry: CatchUpRetry;

  constructor(archivePath: string, onStatus?: (s: SearchWriterStatus) => void) {
    this.writer = new SearchWriter(archivePath, (s) => {
      this.waiters.reached(s.indexedThrough);
      onStatus?.(s);
    });
    this.retry = new CatchUpRetry(this.writer);
    this.writer.catchUp({ trustLiveRows: true });
    this.retry.schedule();
  }

  get status(): SearchWriterStatus {
    return this.writer.status;
  }

  add(id: number, sessionKey: number, text: string, cjk: string, said: boolean, promptParts: readonly string[]): void {
    this.rows.push({ id, sessionKey, text, cjk, said, promptParts });
  }

  committed(through: number): void {
    this.flush();
    this.writer.commit(through);
    this.retry.schedule();
  }

  rolledBack(): void {
    this.rows = [];
    this.writer.rollback();
  }

  room(): Promise<void> {
    this.flush();
    return Promise.resolve();
  }

  whenIndexed(through: number): Promise<void> {
    return this.waiters.wait(through, this.writer.status.indexedThrough);
  }

  async close(): Promise<void> {
    this.retry.stop();
    this.writer.close();
    this.waiters.releaseAll();
  }

  private flush(): void {
    if (this.rows.length === 0) return;
    this.writer.add(this.rows);
    this.rows = [];
  }
}
