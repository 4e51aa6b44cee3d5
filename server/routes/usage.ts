import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { CacheQuery, CustomizationsQuery, UsageQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { jsonBody } from '../http/json-bytes';
import { readOffTheLoop } from '../read-pool/read-ops';

/** What it cost (tokens, credits) and what was loaded (customizations): issue 17. In the read worker (read-ops.ts). */
export function usageRoutes(ctx: AppContext) {
  return new Hono()
    .get('/usage', zValidator('query', UsageQuery, validationHook), async (c) => jsonBody(c, await readOffTheLoop(ctx, 'usage', { query: c.req.valid('query'), now: Date.now() })))
    .get('/usage/cache', zValidator('query', CacheQuery, validationHook), async (c) => jsonBody(c, await readOffTheLoop(ctx, 'cacheBreaks', { query: c.req.valid('query'), now: Date.now() })))
    .get('/customizations', zValidator('query', CustomizationsQuery, validationHook), async (c) => {
      const q = c.req.valid('query');
      const query = { sessionId: q.session, window: q.window, skippedOnly: q.skipped === '1' };
      return jsonBody(c, await readOffTheLoop(ctx, 'customizations', { query, now: Date.now() }));
    });
}
