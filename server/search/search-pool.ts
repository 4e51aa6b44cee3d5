import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { SearchQuery, SearchResponse } from '../../shared/api/search';
import { ApiError } from '../http/errors';

/**
 * Search workers per server. One: the machine this runs on has two cores and the ingest worker has the other
 * during a backfill; each worker holds a connection (16 MB page cache) and a session directory of its own, and
 * issue 19 bounds the whole process tree at 300 MB. What a worker buys is not parallel searches but that no
 * search, however long, holds the event loop that answers health, the stream and every other page.
 */
export const SEARCH_WORKERS = 1;

export interface SearchJob {
  id: number;
  input: SearchQuery;
  now: number;
}

export type SearchReply =
  | { id: number; ok: true; response: SearchResponse }
  | { id: number; ok: false; api: { status: ContentfulStatusCode; code: string; message: string; details?: unknown } }
  | { id: number; ok: false; failure: { message: string; code?: string } };

interface Pending {
  resolve(r: SearchResponse): void;
  reject(e: Error): void;
  worker: Worker;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `search-worker.js` beside the server bundle, or the TypeScript source through tsx. */
function searchWorkerScript(): string {
  return import.meta.url.endsWith('.ts') ? path.join(here, 'search-worker-from-source.mjs') : path.join(here, 'search-worker.js');
}

/**
 * `/api/search` off the event loop: each search runs in a worker thread with its own read-only connection. A
 * worker that dies (out of memory, a native crash) fails the searches it held and is replaced by the next one.
 */
export class SearchPool {
  private readonly workers: (Worker | null)[];
  private readonly pending = new Map<number, Pending>();
  private readonly load = new Map<Worker, number>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly dbPath: string,
    size = SEARCH_WORKERS,
  ) {
    this.workers = Array.from({ length: size }, () => null);
  }

  search(input: SearchQuery, now = Date.now()): Promise<SearchResponse> {
    if (this.closed) return Promise.reject(new ApiError(503, 'busy', 'the server is shutting down'));
    const worker = this.leastLoaded();
    const id = this.nextId++;
    this.load.set(worker, (this.load.get(worker) ?? 0) + 1);
    return new Promise<SearchResponse>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.postMessage({ id, input, now } satisfies SearchJob);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
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
    const w = new Worker(searchWorkerScript(), { workerData: { dbPath: this.dbPath } });
    // An idle pool never keeps the process alive (the CLI, tests); a pending search's socket does.
    w.unref();
    w.on('message', (r: SearchReply) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      this.load.set(w, (this.load.get(w) ?? 1) - 1);
      if (r.ok) p.resolve(r.response);
      else if ('api' in r) p.reject(new ApiError(r.api.status, r.api.code, r.api.message, r.api.details));
      else p.reject(Object.assign(new Error(r.failure.message), { code: r.failure.code }));
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
        p.reject(new Error(`the search worker stopped (${failure?.message ?? `exit code ${code}`})`));
      }
    });
    return w;
  }
}
