import type Database from 'better-sqlite3';
import type { LineageEdgeKind, LineageEdgeSource, LineageNode, LineageTraceQuery, LineageTraceResponse, SessionSource } from '../../shared/api';
import { traceSession } from './trace';

/** The columns of a LineageNode: `s` is sessions, `e` the session's own edge (LEFT JOIN). */
const NODE_COLUMNS = `s.id, s.title, s.label session_label, s.first_ts, s.last_ts, s.event_count, s.error_count, s.repository,
  s.is_child, s.log_deleted, s.source session_source, e.parent_id, e.kind, e.source, e.label edge_label, e.tool_span_id, e.tool_name, e.created_ts,
  (SELECT count(*) FROM session_edges k WHERE k.parent_id = s.id) child_count`;

interface NodeRow {
  id: string;
  title: string | null;
  session_label: string | null;
  first_ts: number | null;
  last_ts: number | null;
  event_count: number;
  error_count: number;
  repository: string | null;
  is_child: number;
  log_deleted: number;
  session_source: string;
  parent_id: string | null;
  kind: string | null;
  source: string | null;
  edge_label: string | null;
  tool_span_id: string | null;
  tool_name: string | null;
  created_ts: number | null;
  child_count: number;
}

function toNode(r: NodeRow): LineageNode {
  return {
    id: r.id,
    title: r.title,
    label: r.edge_label ?? r.session_label,
    parentId: r.parent_id,
    kind: r.kind as LineageEdgeKind | null,
    source: r.source as LineageEdgeSource | null,
    toolSpanId: r.tool_span_id,
    toolName: r.tool_name,
    createdAt: r.created_ts ?? r.first_ts,
    firstTs: r.first_ts,
    lastTs: r.last_ts,
    durationMs: r.first_ts !== null && r.last_ts !== null ? r.last_ts - r.first_ts : null,
    eventCount: r.event_count,
    errorCount: r.error_count,
    repository: r.repository,
    isChild: r.is_child === 1,
    logDeleted: r.log_deleted === 1,
    hasLog: r.event_count > 0 || r.log_deleted === 1,
    childCount: r.child_count,
    sessionSource: r.session_source as SessionSource,
  };
}

export interface LineageReader {
  getSession(id: string): LineageNode | undefined;
  /** the children of many sessions at once, each list by creation time then id; sessions without children are absent */
  getChildrenOfMany(ids: string[]): Map<string, LineageNode[]>;
  getMany(ids: string[]): Map<string, LineageNode>;
}

/** Ids per json_each query: bounded so one level of a very wide tree is a few statements, not one huge one. */
const IDS_PER_QUERY = 5000;

/** The thin DB side of the trace: one indexed lookup per session, one per level of parents. */
export function lineageReader(db: Database.Database): LineageReader {
  const one = db.prepare(`SELECT ${NODE_COLUMNS} FROM sessions s LEFT JOIN session_edges e ON e.child_id = s.id WHERE s.id = ?`);
  const childrenOfMany = db.prepare(
    `SELECT ${NODE_COLUMNS} FROM session_edges e JOIN sessions s ON s.id = e.child_id
     WHERE e.parent_id IN (SELECT value FROM json_each(?)) ORDER BY e.parent_id, e.created_ts, e.child_id`,
  );
  const many = db.prepare(
    `SELECT ${NODE_COLUMNS} FROM sessions s LEFT JOIN session_edges e ON e.child_id = s.id WHERE s.id IN (SELECT value FROM json_each(?))`,
  );
  return {
    getSession: (id) => {
      const r = one.get(id) as NodeRow | undefined;
      return r ? toNode(r) : undefined;
    },
    getChildrenOfMany: (ids) => {
      const out = new Map<string, LineageNode[]>();
      for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
        for (const r of childrenOfMany.all(JSON.stringify(ids.slice(i, i + IDS_PER_QUERY))) as NodeRow[]) {
          const list = out.get(r.parent_id as string);
          if (list) list.push(toNode(r));
          else out.set(r.parent_id as string, [toNode(r)]);
        }
      }
      return out;
    },
    getMany: (ids) => {
      const out = new Map<string, LineageNode>();
      for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
        for (const r of many.all(JSON.stringify(ids.slice(i, i + IDS_PER_QUERY))) as NodeRow[]) out.set(r.id, toNode(r));
      }
      return out;
    },
  };
}

/** GET /api/lineage/:id: null when the session is not in the index; throws LineageCycleError. */
export function traceLineage(db: Database.Database, id: string, q: LineageTraceQuery): LineageTraceResponse | null {
  const r = lineageReader(db);
  // One query per level of the tree instead of one per session: a 1,400-session family was 1,400 statements.
  let level = new Map<string, LineageNode[]>();
  return traceSession(r.getSession, (sessionId) => level.get(sessionId) ?? [], id, q, (ids) => {
    level = r.getChildrenOfMany(ids);
  });
}
