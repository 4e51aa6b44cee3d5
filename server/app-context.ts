import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import type { BackfillProgress, ForwardStatus, Problem } from '../shared/api';
import type { ReadPool } from './read-pool/read-pool';

export interface RootStatus {
  path: string;
  exists: boolean;
  error: string | null;
}

/** What every route handler may use. The database connection is read-only: ingest runs in the worker. */
export interface AppContext {
  db: Database.Database;
  dbPath: string;
  version: string;
  demo: boolean;
  /** 'indexed' ({sessionIds, events, at}) and 'progress' (BackfillProgress), relayed from the ingest worker */
  bus: EventEmitter;
  status: {
    progress: BackfillProgress;
    roots: RootStatus[];
    lastIndexedAt: number;
    problems: Problem[];
    forwarding?: ForwardStatus | null;
    /** set while the indexer cannot write (disk full); cleared when a write succeeds again */
    writesPaused: Problem | null;
    /** why the search file lags (full disk, damaged and being refilled), from the search thread; null when fine */
    searchProblem?: Problem | null;
  };
  /** the hostnames a request's Host header may name (loopback names, plus --host when given) */
  allowedHosts: string[];
  /** when set, every request must carry it (non-loopback --host) */
  token: string | null;
  /**
   * A connection found the index damaged (SQLITE_CORRUPT / SQLITE_NOTADB): the server moves it aside and rebuilds
   * it from the logs (server/index-recovery.ts). Unset in API-only tests.
   */
  reportCorruption?: (cause: string) => void;
  /** runs search and span trees off the event loop (serve); without it they run on `db` (API tests) */
  readPool?: ReadPool;
  /** folder with the built UI (index.html, assets); null in API-only tests */
  webRoot: string | null;
  /** where POST /api/import writes imported sessions (a root the worker watches); unset: importing is off */
  importsDir?: string;
}

export function createBus(): EventEmitter {
  const bus = new EventEmitter();
  bus.setMaxListeners(1000); // one listener per open SSE stream
  return bus;
}
