import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { SearchQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { searchSessions } from '../search/search-sessions';

export function searchRoutes(ctx: AppContext) {
  return new Hono().get('/search', zValidator('query', SearchQuery, validationHook), (c) => c.json(searchSessions(ctx.db, c.req.valid('query')), 200));
}
