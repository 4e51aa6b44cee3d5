import type Database from 'better-sqlite3';

export interface ScopeSession {
  num: number;
  id: string;
  /** the tool span that started this child (sessions.parent_span_id) */
  parentSpanId: string | null;
}

export interface SessionScope {
  root: ScopeSession;
  /** the root is itself a child session (a subagent, title… opened on its own) */
  rootIsChild: boolean;
  /** the root first, then its child sessions (any depth) */
  sessions: ScopeSession[];
}

interface Row {
  num: number;
  id: string;
  parent_span_id: string | null;
  is_child: number;
  folder_session_id: string | null;
}

const toScope = (r: Row): ScopeSession => ({ num: r.num, id: r.id, parentSpanId: r.parent_span_id });

/**
 * The sessions whose log lines make up one session's tree: itself and its child logs, at any depth. A main
 * log's folder holds every child log of its subagents (nested ones too, FORMAT §2.3), so a top-level session
 * takes the whole folder. A child opened on its own takes its descendants by parent_id, plus the children
 * started from one of its tool spans (a nested subagent whose parent_id names the folder's session).
 * Forks name a parent too but are sessions of their own (is_child = 0): never pulled in.
 */
export function sessionScope(db: Database.Database, sessionId: string): SessionScope | null {
  const root = db.prepare('SELECT num, id, parent_span_id, is_child, folder_session_id FROM sessions WHERE id = ?').get(sessionId) as Row | undefined;
  if (!root) return null;
  const byId = new Map<string, ScopeSession>([[root.id, toScope(root)]]);
  const add = (rows: Row[]) => {
    let added = 0;
    for (const r of rows) {
      if (!byId.has(r.id)) {
        byId.set(r.id, toScope(r));
        added++;
      }
    }
    return added;
  };
  add(
    db
      .prepare(
        `WITH RECURSIVE scope(id) AS (SELECT ? UNION SELECT s.id FROM sessions s JOIN scope ON s.parent_id = scope.id AND s.is_child = 1)
         SELECT num, id, parent_span_id, is_child, folder_session_id FROM sessions WHERE id IN scope ORDER BY num`,
      )
      .all(root.id) as Row[],
  );
  const folder = root.folder_session_id ?? root.id;
  if (!root.is_child) {
    add(db.prepare('SELECT num, id, parent_span_id, is_child, folder_session_id FROM sessions WHERE folder_session_id = ? AND is_child = 1 ORDER BY num').all(folder) as Row[]);
  } else {
    const spanLinked = db.prepare(
      `SELECT s.num, s.id, s.parent_span_id, s.is_child, s.folder_session_id FROM sessions s
       WHERE s.folder_session_id = ? AND s.is_child = 1 AND s.parent_span_id IN
         (SELECT span_id FROM events WHERE session_num IN (SELECT value FROM json_each(?)) AND type = 'tool_call')`,
    );
    for (let round = 0; round < 16; round++) {
      const nums = JSON.stringify([...byId.values()].map((s) => s.num));
      if (add(spanLinked.all(folder, nums) as Row[]) === 0) break;
    }
  }
  const sessions = [...byId.values()];
  return { root: sessions[0], rootIsChild: root.is_child === 1, sessions };
}
