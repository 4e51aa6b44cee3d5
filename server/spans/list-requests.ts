import type Database from 'better-sqlite3';
import type { RequestListResponse } from '../../shared/api';
import { notFound } from '../http/errors';
import { labelsFor } from './list-spans';
import { isSessionRequest, modelCallIds, requestTotals } from './request-totals';
import { sessionTree } from './tree-cache';

/** GET /api/sessions/:id/spans/requests: the requests-only view, every request of the session with its totals. */
export function listRequests(db: Database.Database, sessionId: string): RequestListResponse {
  const cached = sessionTree(db, sessionId);
  if (!cached) throw notFound(`session ${sessionId}`);
  const { tree } = cached;
  const picked: number[] = [];
  for (let i = 0; i < tree.length; i++) if (isSessionRequest(tree, i)) picked.push(i);
  const credits = new Map<number, number>();
  const rows = db
    .prepare('SELECT id, credits_nano n FROM events WHERE id IN (SELECT value FROM json_each(?)) AND credits_nano IS NOT NULL')
    .all(JSON.stringify(modelCallIds(tree))) as { id: number; n: number }[];
  for (const r of rows) credits.set(r.id, r.n);
  const labels = labelsFor(db, picked.map((i) => tree.node(i)));
  return {
    sessionId: cached.scope.root.id,
    version: cached.version,
    requests: picked.map((i) => requestTotals(tree, i, credits, labels.get(tree.id(i)) ?? '')),
  };
}
