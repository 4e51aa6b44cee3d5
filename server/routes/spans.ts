import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { EventDetailQuery, RequestTimelineQuery, SpanListQuery, SpanSeekQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { ApiError, notFound, validationHook } from '../http/errors';
import { inOneSnapshot } from '../db/one-snapshot';
import { jsonBody } from '../http/json-bytes';
import { readOffTheLoop } from '../read-pool/read-ops';
import { getEventDetail } from '../spans/event-detail';

/** The session view: its span tree in windows, the overview beside it, seeking errors, and one event whole. */
export function spanRoutes(ctx: AppContext) {
  return new Hono()
    // In the read worker when the server has one (server/read-pool/): a big session's tree is built whole.
    .get('/sessions/:id/spans', zValidator('query', SpanListQuery, validationHook), async (c) => {
      const a = { sessionId: c.req.param('id'), query: c.req.valid('query') };
      return jsonBody(c, await readOffTheLoop(ctx, 'spans', a));
    })
    .get('/sessions/:id/spans/overview', async (c) => {
      const a = { sessionId: c.req.param('id') };
      return jsonBody(c, await readOffTheLoop(ctx, 'spanOverview', a));
    })
    .get('/sessions/:id/spans/requests', async (c) => {
      const a = { sessionId: c.req.param('id') };
      return jsonBody(c, await readOffTheLoop(ctx, 'spanRequests', a));
    })
    .get('/sessions/:id/spans/seek', zValidator('query', SpanSeekQuery, validationHook), async (c) => {
      const a = { sessionId: c.req.param('id'), query: c.req.valid('query') };
      return jsonBody(c, await readOffTheLoop(ctx, 'spanSeek', a));
    })
    .get('/sessions/:id/spans/timeline', zValidator('query', RequestTimelineQuery, validationHook), async (c) => {
      const a = { sessionId: c.req.param('id'), eventId: c.req.valid('query').event };
      return jsonBody(c, await readOffTheLoop(ctx, 'spanTimeline', a));
    })
    .get('/sessions/:id/spans/breakdowns', async (c) => {
      const a = { sessionId: c.req.param('id') };
      return jsonBody(c, await readOffTheLoop(ctx, 'spanBreakdowns', a));
    })
    .get('/events/:id', zValidator('query', EventDetailQuery, validationHook), (c) => {
      const id = Number(c.req.param('id'));
      if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(400, 'bad_request', 'an event id is a positive integer');
      const detail = inOneSnapshot(ctx.db, (db) => getEventDetail(db, id, c.req.valid('query').maxChars));
      if (!detail) throw notFound(`event ${id}`);
      return c.json(detail, 200);
    });
}
