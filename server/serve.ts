import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import type { BackfillProgress } from '../shared/api';
import { createApp } from './app';
import { stampConnections } from './http/server-timing';
import { createBus, type AppContext } from './app-context';
import { LOOPBACK_HOSTS } from './config';
import { openReadDb, openWriteDbOrRecover } from './db/open';
import { ensureImportsTree } from './import/write-imported';
import { ensureSchema } from './db/schema';
import { searchDbPath } from './search-index/search-db';
import { trimMalloc } from './memory/malloc-trim';
import { fullCollection } from './memory/full-collection';
import { QuietTrim } from './memory/quiet-trim';
import { checkIndexInBackground } from './db/check-index';
import { IndexRecovery } from './index-recovery';
import { superviseIngestWorker } from './ingest/supervise-worker';
import { traceStartup } from './ingest/startup-trace';
import { ReadPool } from './read-pool/read-pool';
import type { WorkerMessage } from './ingest/worker';
import type { ForwardConfig } from './forward/forward-config';
import { reportThreadMemory } from './memory/thread-memory';
import { handCommitRowsBackWith, offerCommitRows, pageTriageModelsToDisk, triageModelBytes } from './triage/model';
import { commitRowsTransfer } from './triage/commit-rows';
import { responseCacheBytes } from './http/response-cache';

export interface ServeOptions {
  dbPath: string;
  roots: string[];
  port: number;
  host: string;
  token: string | null;
  demo: boolean;
  webRoot: string | null;
  version: string;
  /** forward every indexed event to an OpenTelemetry collector */
  forward?: ForwardConfig | null;
  /** where imported sessions are written (one of `roots`; made once the index is open): enables POST /api/import */
  importsDir?: string;
  /** print progress lines (the CLI); tests keep quiet */
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  ctx: AppContext;
  /** resolves when the first backfill is done */
  backfilled: Promise<void>;
  recovery: IndexRecovery;
  close(): Promise<void>;
}

/** The server could not listen: the port is taken (EADDRINUSE), not allowed (EACCES) or the host is not here. */
export class ListenError extends Error {
  readonly code: string;
  constructor(host: string, port: number, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException).code ?? 'unknown';
    const why =
      code === 'EADDRINUSE'
        ? `port ${port} on ${host} is already in use (another Chronoscope?): pass --port N, or --port 0 for any free port`
        : code === 'EACCES'
          ? `port ${port} needs privileges: pass --port 1024 or higher`
          : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
            ? `--host ${host} is not an address of this machine`
            : `cannot listen on ${host}:${port} (${cause instanceof Error ? cause.message : String(cause)})`;
    super(why);
    this.code = code;
  }
}

/** Starts the ingest worker and the HTTP server on the read-only connection. */
export async function startServer(o: ServeOptions): Promise<RunningServer> {
  // The schema exists before the read-only connection opens; the worker refills derived tables if needed.
  traceStartup('server starting');
  const { db: setup, recovered } = openWriteDbOrRecover(o.dbPath);
  if (recovered) o.log?.(recovered);
  ensureSchema(setup);
  setup.close();
  if (o.importsDir) ensureImportsTree(o.importsDir);
  const db = openReadDb(o.dbPath);
  const progress: BackfillProgress = { state: 'starting', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
  const ctx: AppContext = {
    db,
    dbPath: o.dbPath,
    version: o.version,
    demo: o.demo,
    bus: createBus(),
    status: {
      progress,
      roots: o.roots.map((p) => ({ path: p, exists: true, error: null })),
      lastIndexedAt: Date.now(),
      // A recovery is recorded in the index itself (health reads it there), so that a restart still shows it.
      problems: [],
      writesPaused: null,
    },
    allowedHosts: [...new Set([...LOOPBACK_HOSTS, o.host.toLowerCase()])],
    token: o.token,
    webRoot: o.webRoot,
    importsDir: o.importsDir,
    readPool: new ReadPool(o.dbPath),
  };
  // what requests and commits freed goes back to the system once the server is quiet (quiet-trim.ts)
  const collectGarbage = fullCollection();
  const quietTrim = new QuietTrim(() => {
    collectGarbage();
    if (ctx.db.open) trimMalloc(ctx.db);
  });
  let markBackfilled: () => void = () => {};
  const backfilled = new Promise<void>((resolve) => (markBackfilled = resolve));
  const onMessage = (m: WorkerMessage) => {
    switch (m.type) {
      case 'triage-rows':
        if (ctx.db.open) offerCommitRows(ctx.db, m.rows);
        break;
      case 'indexed':
        quietTrim.activity();
        ctx.status.lastIndexedAt = m.at;
        ctx.bus.emit('indexed', { sessionIds: m.sessionIds, events: m.events, at: m.at });
        break;
      case 'progress': {
        const { type: _t, ...p } = m;
        ctx.status.progress = p;
        ctx.bus.emit('progress', p);
        if (p.state === 'idle') markBackfilled();
        break;
      }
      case 'roots':
        ctx.status.roots = m.roots;
        break;
      case 'paused':
        if (m.reason !== null) o.log?.(m.reason);
        else if (ctx.status.writesPaused) o.log?.(`space is back: indexing resumed (${o.dbPath})`);
        ctx.status.writesPaused =
          m.reason === null ? null : { fileId: null, path: o.dbPath, lineNo: null, byteOffset: null, kind: 'disk_full', reason: m.reason, at: Date.now() };
        break;
      case 'rebuilt':
        o.log?.(`rebuilt the derived tables from ${m.lines} archived lines (schema ${'changed'})`);
        break;
      case 'damaged':
        void recovery.report(m.cause);
        break;
      case 'forward':
        ctx.status.forwarding = m.status;
        break;
      case 'search': {
        const p = m.status.problem;
        if (p && ctx.status.searchProblem?.reason !== p.reason) o.log?.(p.reason);
        ctx.status.searchProblem = p ? { fileId: null, path: searchDbPath(o.dbPath), lineNo: null, byteOffset: null, kind: p.kind, reason: p.reason, at: Date.now() } : null;
        break;
      }
      case 'fatal':
        o.log?.(`indexer stopped: ${m.message}`);
        console.error(m.message);
        break;
    }
  };
  pageTriageModelsToDisk();
  const app = createApp(ctx);
  reportThreadMemory('main', () => ({ triageModel: triageModelBytes(ctx.db), responseCache: responseCacheBytes() }));
  // Listen before the worker starts: a port in use (often another Chronoscope on the same database) must
  // fail before anything writes, as a ListenError the CLI turns into one line.
  let server: ReturnType<typeof serve>;
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: o.port, hostname: o.host }, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
      s.on('request', () => quietTrim.activity());
      stampConnections(s);
    });
  } catch (err) {
    db.close();
    throw new ListenError(o.host, o.port, err);
  }
  const startIngest = () =>
    superviseIngestWorker({
      input: { dbPath: o.dbPath, roots: o.roots, watch: true, forward: o.forward ?? undefined },
      onMessage,
      onProblem: (reason) => {
        o.log?.(reason);
        ctx.status.problems.push({ fileId: null, path: o.dbPath, lineNo: null, byteOffset: null, kind: 'indexer', reason, at: Date.now() });
      },
    });
  traceStartup('listening; starting the ingest worker');
  let worker = startIngest();
  // the triage rows' chunks go back to the ingest once the model added them (commit-rows.ts), to be written again
  handCommitRowsBackWith((rows) => worker.postMessage({ type: 'recycle-rows', num: rows.num, int: rows.int }, commitRowsTransfer(rows)));
  const recovery = new IndexRecovery({
    ctx,
    dbPath: o.dbPath,
    stopIngest: () => worker.terminate(),
    startIngest: () => (worker = startIngest()),
    log: o.log,
  });
  ctx.reportCorruption = (cause) => void recovery.report(cause);
  // quick_check reads every page (27–56 s on the 1.6 GiB benchmark index): not on the start-up path, but in a
  // thread of its own once the first backfill is done; only a damaged page the backfill never touched is left.
  // The search file too, after the archive: nothing else reads every one of its pages, and a damaged one would
  // otherwise wait for the search that meets it (the recovery then replaces that file alone).
  void backfilled.then(async () => {
    for (const file of [o.dbPath, searchDbPath(o.dbPath)]) {
      if (closed || !fs.existsSync(file)) continue;
      const check = await checkIndexInBackground(file);
      if (check.damage !== null && !closed) {
        await recovery.report(check.damage, file); // checked already: the recovery need not check it again
        break;
      }
      if (check.error !== null) o.log?.(`the index check of ${file} could not run: ${check.error}`);
    }
  });
  let closed = false;
  const address = server.address() as AddressInfo;
  const hostForUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${hostForUrl}:${address.port}`,
    ctx,
    backfilled,
    recovery,
    async close() {
      closed = true;
      quietTrim.stop();
      await recovery.running();
      handCommitRowsBackWith(null);
      worker.postMessage({ type: 'stop' });
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closing;
      await worker.terminate();
      await ctx.readPool?.close();
      db.close();
    },
  };
}
