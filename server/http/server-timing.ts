import type { Socket } from 'node:net';

/**
 * How long /api/health spent in this server, from the accept of its connection to its answer: a `Server-Timing`
 * header (`accept;dur=<ms>`), which browsers' developer tools show and the bench's health client reads.
 *
 * Why: during the bench's bursts of 200 queries in a backfill, its health client saw a p95 of 38–62 ms across
 * runs against the 50 ms target, and only the server's share of that says whether the event loop kept up (issue
 * 19.4). A probe of one run found the server's share at p95 6.5 ms: the slow requests had waited 40–110 ms before
 * the accept, while the loop turned at least every 12 ms, i.e. in a client waiting for one of two busy cores.
 *
 * Only the first request of a connection has it: a later request on a kept-alive connection did not wait since
 * the accept.
 */
const acceptedAt = new WeakMap<Socket, number>();

/** Stamps every connection `server` accepts. */
export function stampConnections(server: { on(event: 'connection', listener: (socket: Socket) => void): unknown }): void {
  server.on('connection', (socket) => acceptedAt.set(socket, performance.now()));
}

/** The header's value for a request on `socket` answered `now`, or null (not stamped, or not its first request). */
export function sinceAccepted(socket: Socket | undefined, now = performance.now()): string | null {
  if (socket === undefined) return null;
  const t = acceptedAt.get(socket);
  if (t === undefined) return null;
  acceptedAt.delete(socket);
  return `accept;dur=${(now - t).toFixed(2)}`;
}

/** The milliseconds of `accept` in a Server-Timing header's value, or null. */
export function acceptDuration(header: string | null | undefined): number | null {
  const m = /(?:^|,)\s*accept;(?:[^,]*;)?\s*dur=([\d.]+)/.exec(header ?? '');
  return m ? Number(m[1]) : null;
}
