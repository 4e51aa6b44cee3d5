import type Database from 'better-sqlite3';
import type { RequestTimeline, RequestBreakdownList } from '../../shared/api';
import { notFound } from '../http/errors';
import { criticalPath } from './critical-path';
import { requestBreakdown } from './request-breakdown';
import { requestOf } from './request-of';
import { isSessionRequest } from './request-totals';
import { MAX_REQUESTS } from './list-spans';
import { sessionTree, type CachedTree } from './tree-cache';

/** GET /api/sessions/:id/spans/timeline: the request event `eventId` belongs to, its breakdown and critical path. */
export function requestTimeline(db: Database.Database, sessionId: string, eventId: number): RequestTimeline {
  const cached = sessionTree(db, sessionId);
  if (!cached) throw notFound(`session ${sessionId}`);
  const { tree } = cached;
  const i = tree.indexOf(eventId);
  if (i === undefined) throw notFound(`event ${eventId} in session ${sessionId}`);
  const node = tree.node(i);
  const extent = node.entry.ts === null ? null : { start: node.entry.ts, end: Math.max(node.entry.ts + node.entry.dur, node.subtreeEnd ?? node.entry.ts) };
  const r = requestOf(tree, i);
  const breakdown = r === null ? null : requestBreakdown(tree, r);
  if (r === null || breakdown === null) return { eventId, extent, request: null };
  return { eventId, extent, request: { id: tree.id(r), breakdown, criticalPath: criticalPath(tree, r) } };
}

// Per tree, for its version: a live append gives the session a new version, and the totals are counted again.
const breakdownsCache = new WeakMap<CachedTree, { version: string; value: RequestBreakdownList }>();

/** GET /api/sessions/:id/spans/breakdowns: every request's totals (the request rows of the waterfall). */
export function requestBreakdowns(db: Database.Database, sessionId: string): RequestBreakdownList {
  const cached = sessionTree(db, sessionId);
  if (!cached) throw notFound(`session ${sessionId}`);
  const hit = breakdownsCache.get(cached);
  if (hit && hit.version === cached.version) return hit.value;
  const { tree } = cached;
  const requests: RequestBreakdownList['requests'] = [];
  for (let i = 0; i < tree.length && requests.length < MAX_REQUESTS; i++) {
    // the rows of the requests-only view (request-totals.ts): the session's own canonical requests
    if (!isSessionRequest(tree, i)) continue;
    const b = requestBreakdown(tree, i);
    if (!b) continue;
    const { calls: _calls, callsTotal: _total, ...totals } = b;
    requests.push({ id: tree.id(i), ...totals });
  }
  const value = { requests };
  breakdownsCache.set(cached, { version: cached.version, value });
  return value;
}
