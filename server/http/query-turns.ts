import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { ApiError } from './errors';

/** Requests waiting for their turn at most; more are refused (503) rather than queued without end. */
export const MAX_WAITING = 1000;
/** A request waiting this long goes next whatever it costs: the cheaper ones arriving after it cannot starve it. */
export const MAX_PASSED_OVER_MS = 1000;
/** Weight of the newest service time in a route's running estimate. */
const LEARNING_RATE = 0.2;

interface Waiting {
  go(): void;
  route: string;
  since: number;
}

/** The route a request is for (`GET /api/sessions/:id/spans`): the unit whose cost is learned. */
function routeOf(c: Context): string {
  const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
  return `${c.req.method} ${route?.path ?? c.req.path}`;
}

/**
 * Database queries take turns, one per turn of the event loop. better-sqlite3 is synchronous: a handler holds
 * the loop from its first statement to its response, and when 200 requests arrive together Node runs all 200
 * handlers back to back before it reads another socket, so /api/health, the SSE stream and the UI's own page
 * waited for every one of them (p95 921 ms, issue 14.6). Here each handler waits its turn and a turn ends at
 * the next check phase (setImmediate), after the loop has polled for I/O: whatever is not queued (health, ready, the
 * stream, the SQL console, which runs in its own process) waits at most for the one query being run, and
 * each query's own work is bounded (the search budget, page caps).
 *
 * The next turn goes to the waiting request whose route has been the quickest so far (a running average of
 * each route's service time), so that a sessions page is not stuck behind twenty charts of a year; among
 * equals, and for anyone passed over for MAX_PASSED_OVER_MS, the one that came first.
 */
export function queryTurns(maxWaiting = MAX_WAITING): MiddlewareHandler {
  const waiting: Waiting[] = [];
  const costMs = new Map<string, number>();
  let busy = false;
  const cost = (w: Waiting) => costMs.get(w.route) ?? 0;
  const pick = (): Waiting | undefined => {
    if (waiting.length === 0) return undefined;
    let best = 0;
    if (performance.now() - waiting[0]!.since < MAX_PASSED_OVER_MS) for (let i = 1; i < waiting.length; i++) if (cost(waiting[i]!) < cost(waiting[best]!)) best = i;
    return waiting.splice(best, 1)[0];
  };
  // The turn ends only at the next check phase, not when the handler returns: sockets read in the same poll
  // phase would otherwise each find the turn free and run back to back, which is what this is here to stop.
  const release = () =>
    setImmediate(() => {
      const next = pick();
      if (next) next.go();
      else busy = false;
    });
  return async (c, next) => {
    const route = routeOf(c);
    if (busy) {
      if (waiting.length >= maxWaiting) throw new ApiError(503, 'busy', `${waiting.length} requests are already waiting for the database; try again in a moment`);
      await new Promise<void>((go) => waiting.push({ go, route, since: performance.now() }));
    }
    busy = true;
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = performance.now() - started;
      const was = costMs.get(route);
      costMs.set(route, was === undefined ? ms : was + LEARNING_RATE * (ms - was));
      release();
    }
  };
}
