import { Hono } from 'hono';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { getHealth, searchProgress } from '../health/health';

export function healthRoutes(ctx: AppContext) {
  return new Hono()
    .get('/health', (c) => c.json(inOneSnapshot(ctx.db, () => getHealth(ctx)), 200))
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
