// One read worker: its own read-only connection, one request at a time (read-pool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openReadDb } from '../db/open';
import { attachSearch } from '../search-index/search-db';
import { ApiError } from '../http/errors';
import { encodeJson } from '../http/json-bytes';
import { READ_OP_LOADS, runReadOp, type ReadOp } from './read-ops';
import type { ReadJob, ReadReply } from './read-pool';
import { fullCollection } from '../memory/full-collection';
import { trimMalloc } from '../memory/malloc-trim';
import { IDLE_RELEASE_MS, QuietTrim } from '../memory/quiet-trim';
import { reportThreadMemory } from '../memory/thread-memory';
import { cachedTreeEvents, dropTrees, treeLoad, TREES_IDLE_MS } from '../spans/tree-cache';

const dbPath = (workerData as { dbPath: string }).dbPath;
const db = openReadDb(dbPath);
const port = parentPort!;
reportThreadMemory('read', () => ({ treeCacheEvents: cachedTreeEvents(db) }));
// A large span tree's load collects between its chunks (tree-cache.ts, treeLoad), and after its build gives back
// what the load freed (malloc-trim.ts: SQLite's growing JSON texts of its reads).
const collect = fullCollection();
treeLoad.collect = collect;
const release = () => {
  collect();
  trimMalloc(db);
};
treeLoad.release = release;

// Idle a while after its requests: the heap V8 grew for them goes back to the system (quiet-trim.ts, IDLE_RELEASE_MS);
// a span tree kept for the next window stays.
const idle = new QuietTrim(release, IDLE_RELEASE_MS);
// Idle much longer: the trees go too (TREES_IDLE_MS).
const forgetTrees = new QuietTrim(() => {
  if (dropTrees(db) > 0) release();
}, TREES_IDLE_MS);

port.on('message', (job: ReadJob) => {
  idle.activity();
  forgetTrees.activity();
  const load = READ_OP_LOADS[job.op];
  // Jobs that arrive meanwhile run before this one: it takes its snapshot only once loaded, so none overlap.
  if (load) void load().then(() => answer(job), (err: unknown) => answer(job, err));
  else answer(job);
});

function answer(job: ReadJob, loadFailure?: unknown): void {
  let reply: ReadReply;
  try {
    if (loadFailure !== undefined) throw loadFailure;
    attachSearch(db, dbPath); // the search file may have been created again since the last job
    const json = encodeJson(runReadOp(db, job.op as ReadOp, job.args as never));
    port.postMessage({ id: job.id, ok: true, json } satisfies ReadReply, [json.buffer]);
    return;
  } catch (err) {
    reply =
      err instanceof ApiError
        ? { id: job.id, ok: false, api: { status: err.status, code: err.code, message: err.message, details: err.details } }
        : { id: job.id, ok: false, failure: { message: err instanceof Error ? err.message : String(err), code: (err as { code?: string }).code } };
  }
  port.postMessage(reply);
}
