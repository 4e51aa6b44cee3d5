import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { ChartQuery, ErrorGroupsQuery, EventListQuery, LatencyStatsQuery, ScatterQuery, TimeseriesQuery, TriageCountsQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { callTimeseries, durationHistogram, ttftScatter } from '../triage/charts';
import { triageCounts } from '../triage/counts';
import { errorGroups } from '../triage/error-groups';
import { eventListNeedsModel, listEvents } from '../triage/events';
import { inOneSnapshot } from '../db/one-snapshot';
import { inTriageSnapshot, keepTriageWarm } from '../triage/keep-warm';
import { latencyStats } from '../triage/latency';

// Triage (issue 5): the slowest calls, failures grouped by cause, latency statistics and their charts. Each
// handler first waits for the triage model to catch up (it loads in steps that yield, so the other routes stay
// responsive during a cold start and a backfill), then answers synchronously (inTriageSnapshot); an event list that
// SQL's indexes answer alone (eventListNeedsModel) does not wait.
export function triageRoutes(ctx: AppContext) {
  keepTriageWarm(ctx);
  return new Hono()
    .get('/events', zValidator('query', EventListQuery, validationHook), async (c) => {
      const q = c.req.valid('query');
      // the default slow list and text searches come from SQL's indexes alone: they never wait for the model
      if (!eventListNeedsModel(q)) return c.json(inOneSnapshot(ctx.db, (db) => listEvents(db, q)), 200);
      return c.json(await inTriageSnapshot(ctx, (db) => listEvents(db, q)), 200);
    })
    .get('/errors/groups', zValidator('query', ErrorGroupsQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => errorGroups(db, c.req.valid('query'))), 200);
    })
    .get('/stats/latency', zValidator('query', LatencyStatsQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => latencyStats(db, c.req.valid('query'))), 200);
    })
    .get('/stats/histogram', zValidator('query', ChartQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => durationHistogram(db, c.req.valid('query'))), 200);
    })
    .get('/stats/timeseries', zValidator('query', TimeseriesQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => callTimeseries(db, c.req.valid('query'))), 200);
    })
    .get('/stats/ttft-scatter', zValidator('query', ScatterQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => ttftScatter(db, c.req.valid('query'))), 200);
    })
    .get('/triage/counts', zValidator('query', TriageCountsQuery, validationHook), async (c) => {
      return c.json(await inTriageSnapshot(ctx, (db) => triageCounts(db, c.req.valid('query'))), 200);
    });
}
