import type Database from 'better-sqlite3';
import { MAX_PAGE_SIZE, type SessionDetail } from '../../shared/api';
import { sessionFigures } from '../counts/session-events';
import { SESSION_SUMMARY_COLUMNS, toSessionSummary, type SessionRow } from './session-row';

interface DetailRow extends SessionRow {
  counts: string | null;
  tokens_cached: number;
  model_ms: number;
  copilot_version: string | null;
  vscode_version: string | null;
  slowest_event: number | null;
  folder_session_id: string | null;
}

/**
 * Everything the session header shows: facts, children, files, refs, companion files and log files. Each list
 * stops at MAX_PAGE_SIZE (a session with 10,000 child logs exists); childCount says how many children there are.
 */
export function getSessionDetail(db: Database.Database, id: string): SessionDetail | null {
  const r = db
    .prepare(
      `SELECT ${SESSION_SUMMARY_COLUMNS}, s.counts, s.tokens_cached, s.model_ms, s.copilot_version, s.vscode_version,
         s.slowest_event, s.folder_session_id FROM sessions s WHERE s.id = ?`,
    )
    .get(id) as DetailRow | undefined;
  if (!r) return null;
  const slowest = r.slowest_event
    ? (db.prepare('SELECT id eventId, name, dur FROM events WHERE id = ?').get(r.slowest_event) as { eventId: number; name: string; dur: number } | undefined)
    : undefined;
  const children = db
    .prepare(
      `SELECT id, label, title, event_count eventCount, error_count errorCount, parent_span_id parentSpanId
       FROM sessions WHERE parent_id = ? ORDER BY coalesce(first_ts, 0), id LIMIT ?`,
    )
    .all(id, MAX_PAGE_SIZE) as SessionDetail['children'];
  const figures = sessionFigures(db, [id, ...children.map((c) => c.id)]);
  for (const c of children) {
    c.eventCount = figures.get(c.id)!.events;
    c.errorCount = figures.get(c.id)!.errors;
  }
  const files = (
    db.prepare('SELECT file_path, tool_name, turn_index, first_seen_at FROM session_files WHERE session_id = ? ORDER BY id LIMIT ?').all(id, MAX_PAGE_SIZE) as {
      file_path: string;
      tool_name: string | null;
      turn_index: number | null;
      first_seen_at: string | null;
    }[]
  ).map((f) => ({ path: f.file_path, toolName: f.tool_name, turnIndex: f.turn_index, firstSeenAt: f.first_seen_at ? Date.parse(f.first_seen_at) : null }));
  const refs = (
    db.prepare('SELECT ref_type, ref_value, turn_index FROM session_refs WHERE session_id = ? ORDER BY id LIMIT ?').all(id, MAX_PAGE_SIZE) as {
      ref_type: string;
      ref_value: string;
      turn_index: number | null;
    }[]
  ).map((x) => ({ type: x.ref_type, value: x.ref_value, turnIndex: x.turn_index }));
  // Companion files belong to the top-level folder; a child session shows its folder's files.
  const folder = r.folder_session_id ?? id;
  const companions = (
    db.prepare('SELECT id, name, kind, n, size, deleted_at FROM companions WHERE session_id = ? ORDER BY kind, n LIMIT ?').all(folder, MAX_PAGE_SIZE) as {
      id: number;
      name: string;
      kind: string;
      n: number | null;
      size: number | null;
      deleted_at: number | null;
    }[]
  ).map((c) => ({
    id: c.id,
    name: c.name,
    kind: (['models', 'system_prompt', 'tools'].includes(c.kind) ? c.kind : 'other') as SessionDetail['companions'][number]['kind'],
    index: c.n,
    size: c.size ?? 0,
    deleted: c.deleted_at !== null,
  }));
  const logFiles = (
    db.prepare('SELECT id, path, kind, label, session_id, events, bad_lines, fragments, size, deleted_at FROM files WHERE session_id = ? ORDER BY id LIMIT ?').all(id, MAX_PAGE_SIZE) as {
      id: number;
      path: string;
      kind: 'main' | 'child' | 'legacy';
      label: string | null;
      session_id: string;
      events: number;
      bad_lines: number;
      fragments: number;
      size: number;
      deleted_at: number | null;
    }[]
  ).map((f) => ({
    id: f.id,
    path: f.path,
    kind: f.kind,
    label: f.label,
    sessionId: f.session_id,
    events: f.events,
    badLines: f.bad_lines,
    fragments: f.fragments,
    size: f.size,
    deleted: f.deleted_at !== null,
  }));
  const parentInIndex = r.parent_id !== null && db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(r.parent_id) !== undefined;
  return {
    ...toSessionSummary(r, figures.get(id)!),
    parentInIndex,
    countsByType: r.counts ? (JSON.parse(r.counts) as Record<string, number>) : {},
    tokensCached: r.tokens_cached,
    modelMs: r.model_ms,
    copilotVersion: r.copilot_version,
    vscodeVersion: r.vscode_version,
    firstTs: r.first_ts,
    lastTs: r.last_ts,
    slowest: slowest ?? null,
    children,
    files,
    refs,
    companions,
    logFiles,
  };
}
