import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { ChartQuery, ErrorGroupsQuery, EventListQuery, LatencyStatsQuery, ScatterQuery, TimeseriesQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { validationHook } from '../http/errors';
import { callTimeseries, durationHistogram, ttftScatter } from '../triage/charts';
import { triageCounts } from '../triage/counts';
import { errorGroups } from '../triage/error-groups';
import { listEvents } from '../triage/events';
import { latencyStats } from '../triage/latency';

// Triage (issue 5): the slowest calls, failures grouped by cause, latency statistics and their charts.
export function triageRoutes(ctx: AppContext) {
  return new Hono()
    .get('/events', zValidator('query', EventListQuery, validationHook), (c) => c.json(listEvents(ctx.db, c.req.valid('query')), 200))
    .get('/errors/groups', zValidator('query', ErrorGroupsQuery, validationHook), (c) => c.json(errorGroups(ctx.db, c.req.valid('query')), 200))
    .get('/stats/latency', zValidator('query', LatencyStatsQuery, validationHook), (c) => c.json(latencyStats(ctx.db, c.req.valid('query')), 200))
    .get('/stats/histogram', zValidator('query', ChartQuery, validationHook), (c) => c.json(durationHistogram(ctx.db, c.req.valid('query')), 200))
    .get('/stats/timeseries', zValidator('query', TimeseriesQuery, validationHook), (c) => c.json(callTimeseries(ctx.db, c.req.valid('query')), 200))
    .get('/stats/ttft-scatter', zValidator('query', ScatterQuery, validationHook), (c) => c.json(ttftScatter(ctx.db, c.req.valid('query')), 200))
    .get('/triage/counts', (c) => c.json(triageCounts(ctx.db), 200));
}
