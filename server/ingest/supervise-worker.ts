import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { spawnWithOwnYoungGeneration } from '../memory/young-generation';
import type { WorkerInput, WorkerMessage } from './worker';

/**
 * The ingest worker's young generation, where a parsed batch lives and dies: 24 MB (8 MB semi-spaces). Smaller, more
 * of each batch lives through two scavenges and is promoted to the old generation, which the heap watch (worker.ts)
 * empties with full collections. Until young-generation.ts, V8 took the launch flag's 4 MB semi-spaces over this
 * limit: 303 MB promoted for a 430 MB backfill under the bench's query load (`--trace-gc-nvp`), 149 MB with 8 MB
 * semi-spaces, 63 MB with 16 MB. The 1.6 GiB backfill under that load, alternated runs: 105.0 / 103.2 s with the
 * flag's, 85.6 / 89.6 / 86.9 / 94.7 s with 8 MB, 85.5 / 89.1 / 82.3 / 84.0 s with 16 MB, whose 16 MB more of young
 * generation put the peak RSS at 296–311 MB against 290–295 (target 300). The old generation gets no limit: V8 aborts
 * the whole process, not the worker, when one allocation (a line of tens of MB) cannot fit under it; the worker
 * empties it on schedule instead.
 */
export const INGEST_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 24 };

/** More crashes than this within RESTART_WINDOW_MS and the worker stays stopped: something is wrong every time. */
export const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface SupervisedWorker {
  postMessage(m: unknown, transfer?: ArrayBuffer[]): void;
  /** Stops the worker for good (no restart). */
  terminate(): Promise<void>;
}

export interface SuperviseOptions {
  input: WorkerInput;
  onMessage(m: WorkerMessage): void;
  /** a restart or a give-up, in words for the health page */
  onProblem(reason: string): void;
  /** the worker script (tests); the ingest worker otherwise */
  script?: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `worker.js` beside the server bundle, or the TypeScript source run through tsx. */
function ingestWorkerScript(): string {
  return import.meta.url.endsWith('.ts') ? path.join(here, 'worker-from-source.mjs') : path.join(here, 'worker.js');
}

/**
 * Runs the ingest worker and starts it again when it dies. Every commit carries the byte offsets it covers, so a
 * new worker resumes exactly where the last commit left off and a crash loses nothing; without this, one crash
 * stopped all indexing until the server was restarted, with nothing on the health page.
 */
export function superviseIngestWorker(o: SuperviseOptions): SupervisedWorker {
  const script = o.script ?? ingestWorkerScript();
  let stopping = false;
  let crashes: number[] = [];
  let current = start();

  function start(): Worker {
    const w = spawnWithOwnYoungGeneration(() => new Worker(script, { workerData: o.input, resourceLimits: INGEST_RESOURCE_LIMITS }));
    let failure: Error | null = null;
    w.on('message', o.onMessage);
    w.on('error', (err) => (failure = err));
    w.on('exit', (code) => {
      if (stopping) return;
      const why = failure ? failure.message : `exit code ${code}`;
      const now = Date.now();
      crashes = [...crashes.filter((t) => now - t < RESTART_WINDOW_MS), now];
      if (crashes.length > MAX_RESTARTS) {
        o.onProblem(
          `The indexer stopped (${why}) ${crashes.length} times within a minute and was not restarted again: new lines are not being indexed. Restart Chronoscope; if it happens again, please report it with this message.`,
        );
        return;
      }
      o.onProblem(`The indexer stopped (${why}) and was restarted; it resumed from its last commit.`);
      current = start();
    });
    return w;
  }

  return {
    postMessage: (m, transfer) => current.postMessage(m, transfer),
    async terminate() {
      stopping = true;
      await current.terminate();
    },
  };
}
