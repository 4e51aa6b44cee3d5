import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { RowPacker, type PackedRows } from './packed-rows';
import { MarkWaiters, type SearchFeed } from './search-feed';
import type { SearchWriterStatus } from './search-writer';

export type SearchThreadRequest =
  | { t: 'rows'; rows: PackedRows; chars: number }
  | { t: 'commit'; through: number }
  | { t: 'rollback' }
  | { t: 'stop' }
  /** the backfill is over: collect what it left and give SQLite's spare memory back (steady-state RSS) */
  | { t: 'settle' }
  /** tests: die of an uncaught error */
  | { t: 'crash' };

export type SearchThreadReply = { t: 'consumed'; chars: number } | { t: 'status'; status: SearchWriterStatus };

/**
 * Characters of text posted to the search thread and not yet written by it, past which the ingest waits
 * (`room`): 6 M characters, about 6–12 MB as strings in each of the two threads until collected (nearly every post
 * is a two-byte string). The search thread, at nice 10 (thread-priority.ts), falls behind whenever the other threads
 * take both cores: at 2 M the ingest waited here 4–5 s of a 70 s backfill at 1.6 GiB under the bench's query load.
 * 4 M, three rounds alternated with 2 M under that load: the ingest thread running 84.4% of the wall instead of
 * 80.7% (its CPU seconds over the wall; the host's speed moved by ±8% between rounds, so the walls alone could not
 * tell), peak RSS 268–278 against 270–272 MB. 8 M took the waits to 0.5 s but the peak RSS to 322 MB
 * (docs/CONTRIBUTING.md, "Where the ingest thread waits"). Since the search thread walks the prompts too
 * (session-prompts.ts), a model call's whole prompt is posted and counted here, and the search thread falls behind
 * more often: at 4 M the ingest waited 9.8–10.8 s of a ~70 s backfill. 6 M, four rounds alternated with 4 M under
 * the bench's load at 1.6 GiB: 67.6 / 68.0 / 68.2 / 67.8 s against 70.0 / 68.7 / 70.4 / 70.4, the waits 7.7–8.3 s,
 * peak RSS 286–296 against 281–293 MB.
 */
export const MAX_IN_FLIGHT_CHARS = 6 * 1024 * 1024;
/**
 * Rows are posted in messages of about this many characters: one message per event cost more than the clone. Small
 * enough that each column's joined string (packed-rows.ts, ≤ 64 KB even of two-byte characters) is an ordinary
 * young object in both threads: strings of 128K characters went to V8's large-object space, which only a full
 * collection frees, and the search thread's heap grew by ~8 MB between them (peak RSS +10 MB at 0.25×).
 */
const POST_CHARS = 32 * 1024;

/** More deaths than this within a minute and the thread is not started again. */
const MAX_RESTARTS = 3;

/**
 * A small young generation: rows arrive, are inserted and die. Started with server/launch-flags.ts's
 * --max-semi-space-size (every launcher passes it), V8 takes the flag over this limit: 4 MB semi-spaces.
 */
const SEARCH_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `search-thread.js` beside the server bundle, or the TypeScript source run through tsx. */
function searchThreadScript(): string {
  return import.meta.url.endsWith('.ts') ? path.join(here, 'search-thread-from-source.mjs') : path.join(here, 'search-thread.js');
}

/** The search writer in a thread of its own; the ingest's side of it. */
export class SearchThread implements SearchFeed {
  private worker!: Worker;
  private pending = new RowPacker();
  private inFlight = 0;
  private roomWaiters: (() => void)[] = [];
  private waiters = new MarkWaiters();
  private latest: SearchWriterStatus = { indexedThrough: 0, archiveThrough: 0, problem: null, archiveDamage: null };
  private exited!: Promise<void>;
  private stopping = false;
  /** the thread died more than MAX_RESTARTS times in a row: nothing is written any more (status.problem says so) */
  private dead = false;
  private crashes: number[] = [];

  constructor(
    private readonly archivePath: string,
    private readonly onStatus: (s: SearchWriterStatus) => void = () => {},
  ) {
    this.start();
  }

  /**
   * A thread that dies is started again: it catches up from its mark, and the rows posted to the dead one are
   * read back from the archive once their group commits (search-writer.ts), so nothing is lost.
   */
  private start(): void {
    // A thread started again joins in the middle of a group whose first rows went to the dead one.
    const restarted = this.crashes.length > 0;
    const worker = new Worker(searchThreadScript(), { workerData: { archivePath: this.archivePath, restarted }, resourceLimits: SEARCH_RESOURCE_LIMITS });
    this.worker = worker;
    let failure: Error | null = null;
    worker.on('message', (m: SearchThreadReply) => this.onReply(m));
    worker.on('error', (err) => (failure = err));
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.inFlight = 0;
        for (const r of this.roomWaiters.splice(0)) r();
        resolve();
        if (this.stopping) return;
        const now = Date.now();
        this.crashes = [...this.crashes.filter((t) => now - t < 60_000), now];
        const why = failure ? failure.message : `exit code ${code}`;
        if (this.crashes.length <= MAX_RESTARTS) {
          this.start();
          return;
        }
        // Whoever waits is told rather than left waiting for ever; health says why search stopped.
        this.dead = true;
        this.waiters.releaseAll();
        this.latest = {
          ...this.latest,
          problem: { kind: 'corrupt', reason: `the search thread stopped (${why}) ${this.crashes.length} times within a minute: new lines are archived but not searchable until Chronoscope restarts` },
        };
        this.onStatus(this.latest);
      }),
    );
  }

  get status(): SearchWriterStatus {
    return this.latest;
  }

  add(id: number, sessionKey: number, text: string, cjk: string, said: boolean, promptParts: readonly string[]): void {
    this.pending.add(id, sessionKey, text, cjk, said, promptParts);
    if (this.pending.chars >= POST_CHARS) this.flush();
  }

  committed(through: number): void {
    this.flush();
    this.post({ t: 'commit', through });
  }

  rolledBack(): void {
    this.pending.clear();
    this.post({ t: 'rollback' });
  }

  room(): Promise<void> {
    this.flush();
    if (this.inFlight <= MAX_IN_FLIGHT_CHARS) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  whenIndexed(through: number): Promise<void> {
    if (this.dead) return Promise.resolve();
    return this.waiters.wait(through, this.latest.indexedThrough);
  }

  async close(): Promise<void> {
    this.stopping = true;
    this.post({ t: 'stop' });
    await this.exited;
    this.waiters.releaseAll();
  }

  /** The backfill is over: the thread empties its heap and SQLite's caches (issue 19.3: steady-state RSS). */
  settle(): void {
    this.post({ t: 'settle' });
  }

  /** Makes the thread die of an uncaught error, as a bug would (tests); resolves once it is gone. */
  async crashForTest(): Promise<void> {
    const exited = this.exited;
    this.post({ t: 'crash' });
    await exited;
  }

  private flush(): void {
    if (this.pending.size === 0) return;
    const chars = this.pending.chars;
    const { rows, transfer } = this.pending.take();
    this.post({ t: 'rows', rows, chars }, transfer);
    this.inFlight += chars;
  }

  private post(m: SearchThreadRequest, transfer: ArrayBuffer[] = []): void {
    if (!this.dead) this.worker.postMessage(m, transfer);
  }

  private onReply(m: SearchThreadReply): void {
    if (m.t === 'consumed') {
      this.inFlight -= m.chars;
      if (this.inFlight <= MAX_IN_FLIGHT_CHARS) for (const r of this.roomWaiters.splice(0)) r();
      return;
    }
    this.latest = m.status;
    this.waiters.reached(m.status.indexedThrough);
    this.onStatus(m.status);
  }
}
