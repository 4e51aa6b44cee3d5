import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { SearchQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { readOffTheLoop } from '../read-pool/read-ops';

export function searchRoutes(ctx: AppContext) {
  return new Hono().get('/search', zValidator('query', SearchQuery, validationHook), async (c) => {
    const input = c.req.valid('query');
    return c.json(await readOffTheLoop(ctx, 'search', { input, now: Date.now() }), 200);
  });
}
