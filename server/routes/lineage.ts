import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { LineageForestQuery, LineageTraceQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { ApiError, notFound, validationHook } from '../http/errors';
import { lineageForest } from '../lineage/forest';
import { traceLineage } from '../lineage/lineage-db';
import { LineageCycleError } from '../lineage/trace';

/** A loop in the parent links is a fact about the logs, not a server failure: 409 naming the sessions. */
function traceOrThrow(fn: () => ReturnType<typeof traceLineage>) {
  try {
    return fn();
  } catch (err) {
    if (err instanceof LineageCycleError) throw new ApiError(409, 'lineage_cycle', err.message, { cycle: err.cycle });
    throw err;
  }
}

export function lineageRoutes(ctx: AppContext) {
  return new Hono()
    .get('/lineage', zValidator('query', LineageForestQuery, validationHook), (c) => c.json(inOneSnapshot(ctx.db, (db) => lineageForest(db, c.req.valid('query'))), 200))
    .get('/lineage/:id', zValidator('query', LineageTraceQuery, validationHook), (c) => {
      const id = c.req.param('id');
      const trace = traceOrThrow(() => inOneSnapshot(ctx.db, (db) => traceLineage(db, id, c.req.valid('query'))));
      if (!trace) throw notFound(`session ${id}`);
      return c.json(trace, 200);
    });
}
