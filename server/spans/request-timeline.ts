import type Database from 'better-sqlite3';
import type { RequestTimeline } from '../../shared/api';
import { notFound } from '../http/errors';
import { criticalPath } from './critical-path';
import { requestBreakdown } from './request-breakdown';
import { requestOf } from './request-of';
import { sessionTree } from './tree-cache';

/** GET /api/sessions/:id/spans/request: the request event `eventId` belongs to, its breakdown and critical path. */
export function requestTimeline(db: Database.Database, sessionId: string, eventId: number): RequestTimeline {
  const cached = sessionTree(db, sessionId);
  if (!cached) throw notFound(`session ${sessionId}`);
  const { tree } = cached;
  const i = tree.indexOf.get(eventId);
  if (i === undefined) throw notFound(`event ${eventId} in session ${sessionId}`);
  const node = tree.nodes[i];
  const extent = node.entry.ts === null ? null : { start: node.entry.ts, end: Math.max(node.entry.ts + node.entry.dur, node.subtreeEnd ?? node.entry.ts) };
  const r = requestOf(tree, i);
  const breakdown = r === null ? null : requestBreakdown(tree, r);
  if (r === null || breakdown === null) return { eventId, extent, request: null };
  return { eventId, extent, request: { id: tree.nodes[r].entry.id, breakdown, criticalPath: criticalPath(tree, r) } };
}
