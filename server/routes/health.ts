import { Hono } from 'hono';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { getHealth } from '../health/health';

export function healthRoutes(ctx: AppContext) {
  return new Hono()
    .get('/health', (c) => c.json(inOneSnapshot(ctx.db, () => getHealth(ctx)), 200))
    // 200 once the first backfill is done: for scripts and the e2e server to wait on.
    .get('/ready', (c) =>
      ctx.status.progress.state === 'idle' ? c.json({ ready: true }, 200) : c.json({ ready: false, progress: ctx.status.progress }, 503),
    );
}
