import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { SearchQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { jsonBody } from '../http/json-bytes';
import { readOffTheLoop } from '../read-pool/read-ops';

export function searchRoutes(ctx: AppContext) {
  return new Hono().get('/search', zValidator('query', SearchQuery, validationHook), async (c) => {
    const input = c.req.valid('query');
    return jsonBody(c, await readOffTheLoop(ctx, 'search', { input, now: Date.now() }));
  });
}
