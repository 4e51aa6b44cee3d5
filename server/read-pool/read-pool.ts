import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../http/errors';
import { onePerTurn } from '../http/one-per-turn';
import { youngGenerationSettling } from '../memory/young-generation';
import type { ReadArgs, ReadOp } from './read-ops';

/**
 * Read workers per server. One: the machine this runs on has two cores and the ingest worker has the other
 * during a backfill; each worker holds a connection (4 MB page cache, READ_CACHE_KB), a session directory and span-tree cache
 * of its own, and issue 19 bounds the whole process tree at 300 MB. What a worker buys is not parallel reads but
 * that no search or span tree, however big, holds the event loop that answers health, the stream and the rest.
 */
export const READ_WORKERS = 1;

export interface ReadJob {
  id: number;
  op: ReadOp;
  args: unknown;
}

export type ReadReply =
  /** the answer's JSON, encoded (encodeJson) and transferred */
  | { id: number; ok: true; json: Uint8Array<ArrayBuffer> }
  | { id: number; ok: false; api: { status: ContentfulStatusCode; code: string; message: string; details?: unknown } }
  | { id: number; ok: false; failure: { message: string; code?: string } };

interface Pending {
  resolve(r: Uint8Array<ArrayBuffer>): void;
  reject(e: Error): void;
  worker: Worker;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `read-worker.js` beside the server bundle, or the TypeScript source through tsx. */
function readWorkerScript(): string {
  return import.meta.url.endsWith('.ts') ? path.join(here, 'read-worker-from-source.mjs') : path.join(here, 'read-worker.js');
}

/**
 * A read worker's young generation: 16 MB instead of V8's 48. Its requests (a search, a span tree's window) leave
 * little behind, but at the default a worker's heap stayed at ~60 MB after the query rows of the bench; the old
 * generation gets no limit, as for the ingest worker (supervise-worker.ts): one request that needs more than a
 * limit would abort the whole process. Started with server/launch-flags.ts's --max-semi-space-size (every launcher
 * passes it), V8 takes the flag over this limit: 4 MB semi-spaces (the ingest worker alone is exempt: young-generation.ts).
 */
export const READ_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 16 };

/**
 * Reads off the event loop (read-ops.ts says which): each runs in a worker thread with its own read-only
 * connection. A worker that dies (out of memory, a native crash) fails the requests it held and is replaced by
 * the next one.
 */
export class ReadPool {
  private readonly workers: (Worker | null)[];
  private readonly pending = new Map<number, Pending>();
  private readonly load = new Map<Worker, number>();
  private nextId = 1;
  private closed = false;
  /**
   * Answers are handed out one per turn of the event loop. A worker's messages arrive in a batch, and each
   * answer's JSON and socket write run on the event loop as soon as it is handed out (a 200-row span window: a
   * few ms): a hundred at once would hold the loop like one long query.
   */
  private readonly handOut = onePerTurn();

  constructor(
    private readonly dbPath: string,
    size = READ_WORKERS,
  ) {
    this.workers = Array.from({ length: size }, () => null);
  }

  /** The answer of `op`, as the JSON bytes `c.json` would send (json-bytes.ts says why bytes). */
  run<K extends ReadOp>(op: K, args: ReadArgs<K>): Promise<Uint8Array<ArrayBuffer>> {
    if (this.closed) return Promise.reject(new ApiError(503, 'busy', 'the server is shutting down'));
    // A worker made now would take the ingest worker's young generation (young-generation.ts): a few ms at start.
    const settling = this.workers.includes(null) ? youngGenerationSettling() : null;
    if (settling) return settling.then(() => this.run(op, args));
    const worker = this.leastLoaded();
    const id = this.nextId++;
    this.load.set(worker, (this.load.get(worker) ?? 0) + 1);
    return new Promise<Uint8Array<ArrayBuffer>>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.postMessage({ id, op, args } satisfies ReadJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.restart();
  }

  /** Stops the workers (what they held fails); the next request starts fresh ones, on a fresh connection. */
  async restart(): Promise<void> {
    const workers = this.workers.filter((w): w is Worker => w !== null);
    this.workers.fill(null);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private leastLoaded(): Worker {
    let best = 0;
    for (let i = 0; i < this.workers.length; i++) {
      const w = this.workers[i];
      if (w === null) return (this.workers[i] = this.start());
      if ((this.load.get(w) ?? 0) < (this.load.get(this.workers[best]!) ?? 0)) best = i;
    }
    return this.workers[best]!;
  }

  private start(): Worker {
    const w = new Worker(readWorkerScript(), { workerData: { dbPath: this.dbPath }, resourceLimits: READ_RESOURCE_LIMITS });
    // An idle pool never keeps the process alive (the CLI, tests); a pending request's socket does.
    w.unref();
    w.on('message', (r: ReadReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      this.load.set(w, (this.load.get(w) ?? 1) - 1);
      void this.handOut().then(() => {
        if (r.ok) p.resolve(r.json);
        else if ('api' in r) p.reject(new ApiError(r.api.status, r.api.code, r.api.message, r.api.details));
        else p.reject(Object.assign(new Error(r.failure.message), { code: r.failure.code }));
      });
    });
    let failure: Error | null = null;
    w.on('error', (err) => (failure = err));
    w.on('exit', (code) => {
      const i = this.workers.indexOf(w);
      if (i !== -1) this.workers[i] = null;
      this.load.delete(w);
      for (const [id, p] of this.pending) {
        if (p.worker !== w) continue;
        this.pending.delete(id);
        p.reject(new Error(`the read worker stopped (${failure?.message ?? `exit code ${code}`})`));
      }
    });
    return w;
  }
}
