import type { MiddlewareHandler } from 'hono';
import { ApiError } from './errors';

/** Requests waiting for their turn at most; more are refused (503) rather than queued without end. */
export const MAX_WAITING = 1000;

/**
 * Database queries take turns, one per turn of the event loop. better-sqlite3 is synchronous: a handler holds
 * the loop from its first statement to its response, and when 200 requests arrive together Node runs all 200
 * handlers back to back before it reads another socket, so /api/health, the SSE stream and the UI's own page
 * waited for every one of them (p95 921 ms, issue 14.6). Here each handler waits its turn and a turn ends at
 * the next check phase (setImmediate), after the loop has polled for I/O: whatever is not queued (health, ready, the
 * stream, the SQL console, which runs in its own process) waits at most for the one query being run, and
 * each query's own work is bounded (the search budget, page caps).
 */
export function queryTurns(maxWaiting = MAX_WAITING): MiddlewareHandler {
  const waiting: (() => void)[] = [];
  let busy = false;
  // The turn ends only at the next check phase, not when the handler returns: sockets read in the same poll
  // phase would otherwise each find the turn free and run back to back, which is what this is here to stop.
  const release = () =>
    setImmediate(() => {
      const next = waiting.shift();
      if (next) next();
      else busy = false;
    });
  return async (_c, next) => {
    if (busy) {
      if (waiting.length >= maxWaiting) throw new ApiError(503, 'busy', `${waiting.length} requests are already waiting for the database; try again in a moment`);
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    busy = true;
    try {
      await next();
    } finally {
      release();
    }
  };
}
