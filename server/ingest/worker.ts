import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { BackfillProgress } from '../../shared/api';
import { isCorruption } from '../db/damaged-index';
import { openWriteDb } from '../db/open';
import { rebuildDerived } from '../db/rebuild';
import { derivedNeedRebuild, ensureSchema } from '../db/schema';
import type { ForwardStatus } from '../../shared/api';
import type { ForwardConfig } from '../forward/forward-config';
import { diskFullMessage, isDiskFull, RetryBackoff, Sleeper } from './disk-full';
import { Indexer } from './indexer';
import { IngestStore } from './store';
import { traceStartup } from './startup-trace';
import { budgetedHeadroom, oldGenerationAndBuffersInUse, HeapWatch, scheduleChecks } from './heap-watch';
import { fullCollection } from '../memory/full-collection';
import { HEAP_SNAPSHOT_ENV, reportThreadMemory } from '../memory/thread-memory';
import { restoreLaunchSemiSpace } from '../memory/young-generation';
import { SearchThread } from '../search-index/search-thread';
import type { SearchWriterStatus } from '../search-index/search-writer';
import { commitRowsTransfer, recycleCommitRowChunks, type CommitRows } from '../triage/commit-rows';
import { compactArchiveText } from './archive-text-compaction';
import { trimMalloc } from '../memory/malloc-trim';
import { IDLE_RELEASE_MS, QuietTrim } from '../memory/quiet-trim';
import type { FtsCompaction } from '../db/fts-compaction';

export interface WorkerInput {
  dbPath: string;
  roots: string[];
  watch: boolean;
  /** forward every indexed event to this collector */
  forward?: ForwardConfig;
}

export type WorkerMessage =
  | { type: 'indexed'; sessionIds: string[]; events: number; at: number }
  | ({ type: 'progress' } & BackfillProgress)
  | { type: 'roots'; roots: { path: string; exists: boolean; error: string | null }[] }
  | { type: 'rebuilt'; lines: number }
  | { type: 'damaged'; cause: string }
  | { type: 'forward'; status: ForwardStatus }
  /** writes are paused because the database cannot grow (reason), or resumed (null) */
  | { type: 'paused'; reason: string | null }
  /** the search file's progress (server/search-index/): its mark against the archive's, and why it lags */
  | { type: 'search'; status: SearchWriterStatus }
  /** the triage model's rows of a commit, as written (server/triage/commit-rows.ts) */
  | { type: 'triage-rows'; rows: CommitRows }
  | { type: 'fatal'; message: string };

// First: the semi-space flag back to the launch value, before this worker makes its search thread (young-generation.ts).
restoreLaunchSemiSpace();

// The ingest worker: the only writer. It owns its connection so that better-sqlite3's synchronous writes never
// block the HTTP server's event loop (DESIGN: ingest never blocks the HTTP server).
const input = workerData as WorkerInput;
const post = (m: WorkerMessage, transfer: ArrayBuffer[] = []) => parentPort?.postMessage(m, transfer);

/**
 * The ingest worker's heap and buffers are collected past what survived + a headroom, at least HEAP_FLOOR_BYTES
 * (heap-watch.ts). The headroom follows the process's RSS (budgetedHeadroom): HEAP_HEADROOM_MAX while the process
 * is under RSS_BUDGET_BYTES by more than that, down to HEAP_HEADROOM_MIN near it (16 MB, not 32: at the 1.6 GiB
 * backfill's peak 304 / 303 MB against 315 / 309, alternated memory-probe runs, when it was the only headroom).
 * memory-probe on the 1.6 GiB corpus, one run each: without query load 90.7 s, 141 CPU s, peak 227 MB with 16 MB
 * always, 75.6 s, 118 CPU s, peak 230 MB with the budget; with the bench's query load (RSS near the budget, so 16 MB
 * most of the time) 94-98 s and a peak of 290-299 MB either way, 274 MB at a quarter of the corpus.
 */
const HEAP_FLOOR_BYTES = 48 * 2 ** 20;
const HEAP_HEADROOM_MIN = 16 * 2 ** 20;
const HEAP_HEADROOM_MAX = 96 * 2 ** 20;
const RSS_BUDGET_BYTES = 256 * 2 ** 20;
const HEAP_CHECK_MS = 100;
/** once the memory in use has stood still for a second (scheduleChecks) */
const HEAP_QUIET_CHECK_MS = 1000;
const collectGarbage = fullCollection();
const headroomBytes = budgetedHeadroom({ rss: () => process.memoryUsage.rss(), budget: RSS_BUDGET_BYTES, min: HEAP_HEADROOM_MIN, max: HEAP_HEADROOM_MAX });
const heapWatch = new HeapWatch({ floorBytes: HEAP_FLOOR_BYTES, headroomBytes, inUse: oldGenerationAndBuffersInUse, collect: collectGarbage });
scheduleChecks(heapWatch, { busyMs: HEAP_CHECK_MS, quietMs: HEAP_QUIET_CHECK_MS, quietAfter: 10, quietBytes: 2 ** 20 });
reportThreadMemory('ingest', () => ({ heapLimit: heapWatch.limit, liveAfterCollect: heapWatch.liveAfterCollect }));
let settled = false;
let archiveCompaction: FtsCompaction | null = null;
let stopping = false;

/** Opens the database and rebuilds derived tables if needed; on a full disk waits and tries again (no crash loop). */
async function openIndex() {
  const backoff = new RetryBackoff();
  const sleeper = new Sleeper();
  for (;;) {
    let db;
    try {
      traceStartup('worker running');
      db = openWriteDb(input.dbPath);
      traceStartup('database open');
      if (ensureSchema(db) || derivedNeedRebuild(db)) {
        const lines = rebuildDerived(db, new IngestStore(db));
        if (lines > 0) post({ type: 'rebuilt', lines });
      }
      if (backoff.waiting) post({ type: 'paused', reason: null });
      traceStartup('schema checked');
      return db;
    } catch (err) {
      db?.close();
      if (!isDiskFull(err)) throw err;
      if (!backoff.waiting) post({ type: 'paused', reason: diskFullMessage(input.dbPath, err) });
      await sleeper.sleep(backoff.next());
    }
  }
}

async function main() {
  const db = await openIndex();
  // Forwarding reads what this connection commits, through a read-only connection of its own (forwarder.ts).
  // Imported only then: its OpenTelemetry packages are ~0.1 s of this worker's start, which a backfill waits for.
  const forwarder = input.forward ? new (await import('../forward/forwarder')).Forwarder(input.dbPath, input.forward, (status) => post({ type: 'forward', status })) : null;
  // The trigram index is written beside this thread, on the other core (server/search-index/search-writer.ts).
  // A damaged page of the archive met by the search thread's catch-up is the index's damage, as if the ingest had
  // met it: the server moves the file aside and rebuilds it (server/index-recovery.ts).
  let damageReported = false;
  const search = new SearchThread(input.dbPath, (status) => {
    post({ type: 'search', status });
    if (status.archiveDamage !== null && !damageReported) {
      damageReported = true;
      post({ type: 'damaged', cause: status.archiveDamage });
    }
  });
  // Idle a while after a backfill or a live session's commits: what the worker kept for the next batch and what V8
  // sized its heap by goes back to the system (quiet-trim.ts, IDLE_RELEASE_MS).
  const idle = new QuietTrim(() => {
    if (stopping || !db.open) return;
    indexer.releaseBuffers();
    heapWatch.collect();
    trimMalloc(db);
  }, IDLE_RELEASE_MS);
  const indexer = new Indexer(
    db,
    { roots: input.roots, watch: input.watch, search },
    {
      indexed: (sessionIds, events) => {
        post({ type: 'indexed', sessionIds, events, at: Date.now() });
        forwarder?.kick();
        idle.activity();
      },
      progress: (p) => {
        post({ type: 'progress', ...p });
        // The backfill is over: what it parsed is garbage and its pages are cold. Live appends need neither, and
        // an idle server keeps whatever it holds now (issue 19.3: steady-state RSS).
        if (p.state === 'idle' && !settled) {
          settled = true;
          if (process.env[HEAP_SNAPSHOT_ENV]) v8.writeHeapSnapshot(process.env[HEAP_SNAPSHOT_ENV]);
          heapWatch.collect();
          db.pragma('shrink_memory');
          trimMalloc(db);
          search.settle();
          idle.activity();
          // the merges of the archive's FTS5 tables the backfill put off, between the live groups from now on, once
          // search has caught up (not beside the last of the backfill's search rows, for the disk and the memory)
          void indexer.whenSearchCaughtUp().then(() => {
            if (!stopping) archiveCompaction = compactArchiveText(db, { damaged: (cause) => post({ type: 'damaged', cause }), onDone: () => idle.activity() });
          });
        }
      },
      triageRows: (rows) => post({ type: 'triage-rows', rows }, commitRowsTransfer(rows)),
      damaged: (cause) => post({ type: 'damaged', cause }),
      paused: (reason) => post({ type: 'paused', reason }),
      roots: (roots) => post({ type: 'roots', roots: roots.map((r) => ({ path: r.path, exists: r.exists, error: r.error })) }),
    },
  );
  parentPort?.on('message', (m: { type: string; num?: Float64Array[]; int?: Int32Array[] }) => {
    if (m.type === 'recycle-rows') recycleCommitRowChunks(m.num ?? [], m.int ?? []);
    if (m.type === 'stop') {
      stopping = true;
      idle.stop();
      archiveCompaction?.stop();
      forwarder?.stop();
      void indexer
        .stop()
        .then(() => search.close())
        .then(() => db.close());
    }
  });
  await indexer.start();
  forwarder?.kick(); // what an earlier run indexed but did not send
}

main().catch((err: unknown) => {
  if (isCorruption(err)) post({ type: 'damaged', cause: err instanceof Error ? err.message : String(err) });
  else post({ type: 'fatal', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
