import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlResult } from '../../shared/api';
import { CONSOLE_MAX_RSS_BYTES, MEMORY_CAP_SIGNAL } from './console-watchdog';
import { DEFAULT_LIMITS, type ConsoleLimits } from './run-console-query';
import { SqlQueryError, type SqlErrorCode } from './sql-error';
import { checkStatementText } from './statement-text';

/** A console query runs at most this long; then its process is killed and a fresh one started. */
export const SQL_TIME_LIMIT_MS = 5000;
/** Queries waiting behind the running one; more are refused (503) rather than piling up. */
export const MAX_QUEUED = 8;
const IDLE_MS = 5 * 60_000;
const START_TIMEOUT_MS = 30_000;

export interface ChildRequest {
  id: number;
  sql: string;
  limits: ConsoleLimits;
}

export type ChildReply =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; result: SqlResult }
  | { type: 'error'; id: number; code: SqlErrorCode; message: string; reason?: string };

export interface SqlRunnerOptions {
  dbPath: string;
  timeoutMs?: number;
  maxQueued?: number;
  /** the process is stopped after this long without queries, and started again by the next one */
  idleMs?: number;
  limits?: ConsoleLimits;
  /** the console process's memory cap, temporary tables and sorts included (console-watchdog.ts) */
  maxRssBytes?: number;
}

interface Job {
  sql: string;
  id: number;
  done: boolean;
  resolve(r: SqlResult): void;
  reject(e: SqlQueryError): void;
  timer?: NodeJS.Timeout;
  /** the process it was sent to: a late exit of a killed process must not fail the next query */
  child?: ChildProcess;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `sql-process.js` beside the bundle, or the TypeScript source through tsx. */
function processScript(): string {
  if (import.meta.url.endsWith('.ts')) return path.join(here, 'query-process-from-source.mjs');
  return path.join(here, 'sql-process.js');
}

// A console process must not outlive the server, even one that exits without closing its runners.
const liveChildren = new Set<ChildProcess>();

/** Console processes alive in this process (tests: a runner never holds more than one). */
export function liveConsoleProcesses(): number {
  return liveChildren.size;
}
let exitHookInstalled = false;
function track(child: ChildProcess) {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
}

function fileIdentity(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}

/**
 * A pool of one console process with its own read-only connection. Queries run one at a time in it, so the
 * server's event loop and its own connection never wait for a console query; a query that outlives the time
 * limit has its process killed (the only way to stop SQLite mid-statement here) and a new one is started.
 */
export class SqlRunner {
  private child: ChildProcess | null = null;
  private starting: Promise<ChildProcess> | null = null;
  private queue: Job[] = [];
  private running: Job | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  /** keeps the caller's event loop alive while queries are pending (the process and its channel are unref'd) */
  private keepAlive: NodeJS.Timeout | undefined;
  private closed = false;
  /** the index file the running process opened (dev:ino): a rebuilt index is a new file, so a new process */
  private childFile: string | null = null;
  /** processes killed for running past the time limit (for tests and the log) */
  killed = 0;
  readonly timeoutMs: number;
  private readonly maxQueued: number;
  private readonly idleMs: number;
  private readonly limits: ConsoleLimits;

  constructor(private readonly o: SqlRunnerOptions) {
    this.timeoutMs = o.timeoutMs ?? SQL_TIME_LIMIT_MS;
    this.maxQueued = o.maxQueued ?? MAX_QUEUED;
    this.idleMs = o.idleMs ?? IDLE_MS;
    this.limits = o.limits ?? DEFAULT_LIMITS;
  }

  /** the running process's pid, if any (tests) */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  query(sql: string): Promise<SqlResult> {
    // The text layer runs here too, so that a refused statement is answered without waiting for the process.
    const checked = checkStatementText(sql);
    if (!checked.ok) return Promise.reject(new SqlQueryError('sql_refused', checked.message, checked.reason));
    if (this.closed) return Promise.reject(new SqlQueryError('busy', 'the SQL console is shutting down'));
    if (this.queue.length >= this.maxQueued) {
      return Promise.reject(new SqlQueryError('busy', `${this.queue.length} console queries are already waiting; try again when they are done`));
    }
    return new Promise<SqlResult>((resolve, reject) => {
      this.keepAlive ??= setInterval(() => {}, 1 << 30);
      this.queue.push({ sql, id: 0, done: false, resolve, reject });
      void this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const job of this.queue.splice(0)) this.finish(job, new SqlQueryError('busy', 'the SQL console is shutting down'));
    if (this.running) this.finish(this.running, new SqlQueryError('busy', 'the SQL console is shutting down'));
    await this.stopChild();
  }

  private async pump(): Promise<void> {
    if (this.running || this.queue.length === 0 || this.closed) return;
    const job = this.queue.shift()!;
    this.running = job;
    clearTimeout(this.idleTimer);
    let child: ChildProcess;
    try {
      // The index was moved aside and rebuilt (server/index-recovery.ts): the process still reads the old file.
      if (this.child && this.childFile !== fileIdentity(this.o.dbPath)) await this.stopChild();
      child = await this.ensureChild();
    } catch (err) {
      this.finish(job, new SqlQueryError('sql_crashed', `the SQL console could not start: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    if (job.done) return;
    job.id = this.nextId++;
    job.child = child;
    // The clock starts when the statement is handed over: starting the process is not the query's time.
    job.timer = setTimeout(() => {
      this.killed++;
      void this.stopChild();
      this.finish(job, new SqlQueryError('sql_timeout', `the query ran longer than ${this.timeoutMs / 1000} s and was stopped`));
      // Restart right away, so that the next query does not pay for the start.
      if (!this.closed) this.ensureChild().catch(() => {});
    }, this.timeoutMs);
    child.send({ id: job.id, sql: job.sql, limits: this.limits } satisfies ChildRequest);
  }

  private finish(job: Job, outcome: SqlResult | SqlQueryError): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (this.running === job) this.running = null;
    if (outcome instanceof SqlQueryError) job.reject(outcome);
    else job.resolve(outcome);
    if (this.queue.length > 0) void this.pump();
    else {
      clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
    if (this.queue.length === 0 && !this.running && !this.closed) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => void this.stopChild(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private ensureChild(): Promise<ChildProcess> {
    if (this.child && this.child.connected) return Promise.resolve(this.child);
    if (this.starting) return this.starting;
    this.childFile = fileIdentity(this.o.dbPath);
    const maxRss = this.o.maxRssBytes ?? CONSOLE_MAX_RSS_BYTES;
    const child = fork(processScript(), [this.o.dbPath, String(maxRss)], {
      stdio: ['ignore', 2, 'inherit', 'ipc'], // its stdout to our stderr: under `mcp`, stdout is the protocol
      serialization: 'advanced',
      // Not the parent's flags (a test runner's or tsx's); a bounded JS heap for building results.
      execArgv: ['--max-old-space-size=512'],
    });
    track(child);
    // Neither the process nor its channel keeps the server (or a CLI run) alive; a running query's timer does.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    // Handlers below belong to this child: a killed process's late 'exit' must not clear the start of its
    // successor (which would make the next query fork a second process).
    const starting: Promise<ChildProcess> = new Promise<ChildProcess>((resolve, reject) => {
      const startTimer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`no answer in ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      startTimer.unref();
      const settleStart = () => {
        clearTimeout(startTimer);
        if (this.starting === starting) this.starting = null;
      };
      child.on('message', (m: ChildReply) => {
        if (m.type === 'ready') {
          settleStart();
          this.child = child;
          resolve(child);
        } else if (m.type === 'fatal') {
          settleStart();
          reject(new Error(m.message));
        } else if (this.running && this.running.child === child && m.id === this.running.id) {
          const job = this.running;
          this.finish(job, m.type === 'result' ? m.result : new SqlQueryError(m.code, m.message, m.reason));
        }
      });
      child.once('error', (err) => {
        settleStart();
        reject(err);
      });
      child.once('exit', (code, signal) => {
        settleStart();
        reject(new Error(`it exited (${signal ?? code})`)); // no-op once it was ready
        if (this.child === child) this.child = null;
        // Died under a query (the memory cap, a crash): that query fails, the next one gets a new process.
        const job = this.running;
        if (job && job.child === child && !job.done) {
          const error =
            signal === MEMORY_CAP_SIGNAL
              ? new SqlQueryError(
                  'sql_too_big',
                  `the query needed more than ${Math.round(maxRss / 2 ** 20)} MB of memory (sorting, grouping or DISTINCT over many rows keeps them all) and was stopped: add a WHERE or a LIMIT inside the subquery, or sort fewer columns`,
                )
              : new SqlQueryError('sql_crashed', `the query's process stopped (${signal ?? code}); try a smaller query`);
          this.finish(job, error);
        }
      });
    });
    this.starting = starting;
    return this.starting;
  }

  private stopChild(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      // The process is unref'd: without this, a CLI run whose last handle it was ended before close()
      // resolved, and exited 0 whatever its command returned (an SQL error exited 0).
      child.ref();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
