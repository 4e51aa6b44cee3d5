import type { IncomingMessage } from 'node:http';
import { Hono } from 'hono';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { getHealth, searchProgress } from '../health/health';
import { sinceAccepted } from '../http/server-timing';

export function healthRoutes(ctx: AppContext) {
  return new Hono()
    .get('/health', (c) => {
      const health = inOneSnapshot(ctx.db, () => getHealth(ctx));
      // the server's share of this request's time, from its connection's accept (server-timing.ts)
      const timing = sinceAccepted((c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket);
      if (timing !== null) c.header('Server-Timing', timing);
      return c.json(health, 200);
    })
    // 200 once the backfill is done and search has caught up with it: for scripts and the e2e server to wait on, so
    // that what they search next is all there. The search thread commits its rows after the archive's last group
    // (~0.1 s for 100 MB of logs), longer while it refills after an upgrade. A search file with a problem (in
    // health) may not catch up at all, and does not hold readiness back.
    .get('/ready', (c) => {
      const progress = ctx.status.progress;
      const search = inOneSnapshot(ctx.db, () => searchProgress(ctx));
      const ready = progress.state === 'idle' && (search.eventsBehind === 0 || Boolean(ctx.status.searchProblem));
      return ready ? c.json({ ready: true }, 200) : c.json({ ready: false, progress, search }, 503);
    });
}
