import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { RepositoryListQuery, SessionListQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { notFound, validationHook } from '../http/errors';
import { listRepositories } from '../sessions/list-repositories';
import { listSessions } from '../sessions/list-sessions';
import { getSessionDetail } from '../sessions/session-detail';

export function sessionRoutes(ctx: AppContext) {
  return new Hono()
    .get('/sessions', zValidator('query', SessionListQuery, validationHook), (c) => c.json(listSessions(ctx.db, c.req.valid('query')), 200))
    .get('/sessions/:id', (c) => {
      const detail = getSessionDetail(ctx.db, c.req.param('id'));
      if (!detail) throw notFound(`session ${c.req.param('id')}`);
      return c.json(detail, 200);
    })
    .get('/repositories', zValidator('query', RepositoryListQuery, validationHook), (c) => c.json(listRepositories(ctx.db, c.req.valid('query')), 200));
}
