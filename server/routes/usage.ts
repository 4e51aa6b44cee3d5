import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { CacheQuery, CustomizationsQuery, UsageQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { listCustomizations } from '../customizations/list-customizations';
import { validationHook } from '../http/errors';
import { cacheBreaks } from '../usage/cache-breaks';
import { usage } from '../usage/usage';

/** What it cost (tokens, credits) and what was loaded (customizations): issue 17. */
export function usageRoutes(ctx: AppContext) {
  return new Hono()
    .get('/usage', zValidator('query', UsageQuery, validationHook), (c) => c.json(inOneSnapshot(ctx.db, (db) => usage(db, c.req.valid('query'))), 200))
    .get('/usage/cache', zValidator('query', CacheQuery, validationHook), (c) => c.json(inOneSnapshot(ctx.db, (db) => cacheBreaks(db, c.req.valid('query'))), 200))
    .get('/customizations', zValidator('query', CustomizationsQuery, validationHook), (c) => {
      const q = c.req.valid('query');
      return c.json(inOneSnapshot(ctx.db, (db) => listCustomizations(db, { sessionId: q.session, window: q.window, skippedOnly: q.skipped === '1' })), 200);
    });
}
