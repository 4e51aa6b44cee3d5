import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { SearchQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { searchSessions } from '../search/search-sessions';

export function searchRoutes(ctx: AppContext) {
  return new Hono().get('/search', zValidator('query', SearchQuery, validationHook), async (c) => {
    const input = c.req.valid('query');
    return c.json(ctx.readPool ? await ctx.readPool.run('search', { input, now: Date.now() }) : searchSessions(ctx.db, input), 200);
  });
}
