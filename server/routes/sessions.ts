import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { RepositoryListQuery, SessionListQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { notFound, validationHook } from '../http/errors';
import { listRepositories } from '../sessions/list-repositories';
import { listSessions } from '../sessions/list-sessions';
import { getSessionDetail } from '../sessions/session-detail';

export function sessionRoutes(ctx: AppContext) {
  return new Hono()
    .get('/sessions', zValidator('query', SessionListQuery, validationHook), (c) => c.json(inOneSnapshot(ctx.db, (db) => listSessions(db, c.req.valid('query'))), 200))
    .get('/sessions/:id', (c) => {
      const detail = inOneSnapshot(ctx.db, (db) => getSessionDetail(db, c.req.param('id')));
      if (!detail) throw notFound(`session ${c.req.param('id')}`);
      return c.json(detail, 200);
    })
    .get('/repositories', zValidator('query', RepositoryListQuery, validationHook), (c) => c.json(inOneSnapshot(ctx.db, (db) => listRepositories(db, c.req.valid('query'))), 200));
}
