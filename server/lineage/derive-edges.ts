import type Database from 'better-sqlite3';
import { rawLines } from '../db/raw-lines';
import type { MetadataParent } from '../ingest/cli/cli-session-facts';
import { lineAttrs } from '../ingest/normalize';

export type EdgeKind = 'child' | 'fork' | 'continuation';
export type EdgeSource = 'tool_span' | 'session_start' | 'child_ref' | 'folder' | 'metadata';

export interface Edge {
  childId: string;
  parentId: string;
  kind: EdgeKind;
  label: string | null;
  toolSpanId: string | null;
  toolName: string | null;
  source: EdgeSource;
  createdTs: number | null;
}

/** What the archive says about where one session came from; every field may be missing. */
export interface LinkFacts {
  id: string;
  /** it has a child log file, or another log names it in a child_session_ref */
  isChild: boolean;
  /** the session folder holding its child log */
  folderId: string | null;
  /** file-name label of its child log (sanitised, FORMAT §2.3) */
  fileLabel: string | null;
  /** the child_session_ref naming it: the session whose log holds it, its parentSpanId (the tool span), label, ts */
  ref: { holderId: string; spanId: string | null; label: string | null; ts: number | null; rIdx?: number } | null;
  /** the first session_start that names a parent (parentSessionId / parentSession), and that line's rIdx */
  start: { parentId: string; label: string | null; rIdx: number; ts: number | null } | null;
  /** label in its first session_start, even when it names no parent */
  startLabel: string | null;
  /** parentSpanId of its earliest subagent entry (the invoke_agent span of a subagent: FORMAT §3.5) */
  subagentParentSpanId: string | null;
  firstTs: number | null;
  /** a Copilot CLI session's vscode.metadata.json parent (cli-session-facts.ts metadataParent), as its row holds it */
  metadataParent?: MetadataParent | null;
}

/**
 * The one parent of a session, from the facts in order of precision:
 * 1. a child whose start span (the ref's parentSpanId, else its subagent entry's parentSpanId) is a tool call in
 *    another session: that session ran the tool. This is what makes nested subagents nest: the child log of a
 *    subagent started by a subagent sits in the top-level folder, but its runSubagent tool call is in the
 *    first subagent's log;
 * 2. the parent its session_start names (child files; for a main log this is a fork, or a continuation when the
 *    line naming it was written by a resumed run);
 * 3. the session whose log holds the child_session_ref;
 * 4. the folder of its child log.
 * A session that is not a child log has a parent only when its session_start names one (a fork, or a
 * continuation), or, for a Copilot CLI session, when VS Code's vscode.metadata.json does (`parentSessionId`).
 */
export function chooseEdge(f: LinkFacts, toolOwner: (spanId: string) => { sessionId: string; tool: string | null } | null): Edge | null {
  const own = (p: string | null | undefined): p is string => typeof p === 'string' && p !== '' && p !== f.id;
  if (f.isChild) {
    const label = f.ref?.label ?? f.start?.label ?? f.startLabel ?? f.fileLabel;
    const createdTs = f.ref?.ts ?? f.start?.ts ?? f.firstTs;
    const spanId = f.ref?.spanId ?? f.subagentParentSpanId ?? null;
    const base = { childId: f.id, kind: 'child' as const, label, createdTs, toolSpanId: spanId, toolName: null as string | null };
    if (spanId) {
      const owner = toolOwner(spanId);
      if (owner && own(owner.sessionId)) return { ...base, parentId: owner.sessionId, toolName: owner.tool, source: 'tool_span' };
    }
    if (own(f.start?.parentId)) return { ...base, parentId: f.start.parentId, source: 'session_start' };
    if (own(f.ref?.holderId)) return { ...base, parentId: f.ref.holderId, source: 'child_ref' };
    if (own(f.folderId)) return { ...base, parentId: f.folderId, source: 'folder' };
    return null;
  }
  if (own(f.start?.parentId)) {
    return {
      childId: f.id,
      parentId: f.start.parentId,
      kind: f.start.rIdx > 0 ? 'continuation' : 'fork',
      label: f.start.label ?? f.startLabel,
      toolSpanId: null,
      toolName: null,
      source: 'session_start',
      createdTs: f.start.ts ?? f.firstTs,
    };
  }
  // 5. the parent VS Code's metadata names for a Copilot CLI session (forked there, or started under it)
  if (own(f.metadataParent?.id)) {
    return { childId: f.id, parentId: f.metadataParent.id, kind: f.metadataParent.kind, label: f.startLabel, toolSpanId: null, toolName: null, source: 'metadata', createdTs: f.firstTs };
  }
  return null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Keeps `session_edges` (and the parent columns of `sessions`) in step with the archive. Called for each
 * refreshed session: it derives that session's edge, then the edges of the children started by a tool call in
 * that session, because a runSubagent tool_call is written when the tool *finishes* — after its child's log —
 * so the child's parent can only be corrected when the tool call arrives.
 */
export function makeEdgeDeriver(db: Database.Database) {
  const st = {
    session: db.prepare('SELECT num, id, is_child, label, first_ts, parent_id, parent_span_id, source, relation FROM sessions WHERE id = ?'),
    childFile: db.prepare("SELECT folder_session_id, label FROM files WHERE session_id = ? AND kind = 'child' ORDER BY id LIMIT 1"),
    ref: db.prepare(
      `SELECT s.id holder, e.parent_span_id, e.name, e.ts, e.r_idx FROM events e JOIN sessions s ON s.num = e.session_num
       WHERE e.span_id = ? AND e.type = 'child_session_ref' ORDER BY e.id LIMIT 1`,
    ),
    // session_start and subagent lines of one session: one arm per type, so that each seeks its partial index
    // (events_session_marks, events_start_span) instead of reading all the session's events (at every refresh).
    startLines: db.prepare(
      `SELECT id, type, ts, r_idx, parent_span_id FROM events WHERE session_num = @num AND type = 'session_start'
       UNION ALL
       SELECT id, type, ts, r_idx, parent_span_id FROM events WHERE session_num = @num AND type = 'subagent'
       ORDER BY id`,
    ),
    // Span ids are per-window counters that collide across sessions (FORMAT §10.2): the tool call that started a
    // child is looked for only among the sessions of the child's folder, where one window numbered every log (the
    // main log, its subagents' logs and theirs), and there first in the run that wrote the ref (each run of a
    // session numbers from 1 again). Looking a span id up across the index matched hundreds of
    // unrelated sessions, and made each refresh cost as much as the number of sessions. CROSS JOIN keeps the
    // folder's sessions outermost: by span_id alone the planner would read every session's colliding tool calls.
    folderOf: db.prepare('SELECT coalesce(folder_session_id, id) folder FROM sessions WHERE id = ?'),
    tool: db.prepare(
      `SELECT s.id, e.tool FROM sessions s CROSS JOIN events e ON e.session_num = s.num
       WHERE (s.folder_session_id = @folder OR s.id = @folder) AND s.num != @num
         AND e.span_id = @span AND e.type = 'tool_call'
       ORDER BY (s.id = @holder AND e.r_idx = @run) DESC, e.id LIMIT 1`,
    ),
    // Sessions of this folder started by a tool call of this session: through their subagent entry or the ref naming them.
    startedHere: db.prepare(
      `SELECT a.type, a.span_id, s.id FROM sessions s
       JOIN events a ON a.session_num = s.num AND (a.type = 'subagent' OR a.type = 'child_session_ref') AND a.parent_span_id IS NOT NULL
       WHERE (s.folder_session_id = @folder OR s.id = @folder)
         AND EXISTS (SELECT 1 FROM events t WHERE t.span_id = a.parent_span_id AND t.session_num = @num
                       AND t.type = 'tool_call')`,
    ),
    edge: db.prepare('SELECT parent_id FROM session_edges WHERE child_id = ?'),
    upsert: db.prepare(
      `INSERT INTO session_edges (child_id, parent_id, kind, label, tool_span_id, tool_name, source, created_ts)
       VALUES (@childId, @parentId, @kind, @label, @toolSpanId, @toolName, @source, @createdTs)
       ON CONFLICT (child_id) DO UPDATE SET parent_id = excluded.parent_id, kind = excluded.kind, label = excluded.label,
         tool_span_id = excluded.tool_span_id, tool_name = excluded.tool_name, source = excluded.source, created_ts = excluded.created_ts`,
    ),
    remove: db.prepare('DELETE FROM session_edges WHERE child_id = ?'),
    reparent: db.prepare('UPDATE sessions SET parent_id = @parent, parent_span_id = coalesce(@span, parent_span_id) WHERE num = @num'),
    childCount: db.prepare('UPDATE sessions SET child_count = (SELECT count(*) FROM sessions c WHERE c.parent_id = @id) WHERE id = @id'),
  };

  const raw = rawLines(db);
  const folderOf = (id: string): string => (st.folderOf.get(id) as { folder: string } | undefined)?.folder ?? id;

  /** A start line's attributes: a debug log's `attrs`, a Copilot CLI line's `data` (what normalize-cli.ts makes its attrs). */
  function attrsOf(lineId: number): Record<string, unknown> {
    return lineAttrs(raw.json(lineId)) ?? {};
  }

  function factsOf(s: { num: number; id: string; is_child: number; first_ts: number | null; parent_id: string | null; source: string; relation: string | null }): LinkFacts {
    const file = st.childFile.get(s.id) as { folder_session_id: string | null; label: string | null } | undefined;
    const refRow = st.ref.get(`child-ref-${s.id}`) as { holder: string; parent_span_id: string | null; name: string | null; ts: number | null; r_idx: number } | undefined;
    let start: LinkFacts['start'] = null;
    let startLabel: string | null = null;
    let firstStart = true;
    let sub: { ts: number | null; span: string } | null = null;
    for (const l of st.startLines.all({ num: s.num }) as { id: number; type: string; ts: number | null; r_idx: number; parent_span_id: string | null }[]) {
      if (l.type === 'subagent') {
        // the child's own invoke_agent span starts first; later subagent entries are nested inside it
        if (l.parent_span_id && (sub === null || (l.ts ?? Infinity) < (sub.ts ?? Infinity))) sub = { ts: l.ts, span: l.parent_span_id };
        continue;
      }
      if (start !== null) continue;
      const a = attrsOf(l.id);
      if (firstStart) startLabel = str(a.label);
      firstStart = false;
      // the parents store.ts writes to sessions.parent_id from the same line: a fork's, a resumed run's, a detached CLI session's
      const parentId = str(a.parentSessionId) ?? str(a.parentSession) ?? str(a.detachedFromSpawningParentSessionId);
      if (parentId) start = { parentId, label: str(a.label), rIdx: l.r_idx, ts: l.ts };
    }
    return {
      id: s.id,
      isChild: s.is_child === 1 || file !== undefined || refRow !== undefined,
      folderId: file?.folder_session_id ?? null,
      fileLabel: file?.label ?? null,
      ref: refRow ? { holderId: refRow.holder, spanId: refRow.parent_span_id, label: refRow.name, ts: refRow.ts, rIdx: refRow.r_idx } : null,
      start,
      startLabel,
      subagentParentSpanId: sub?.span ?? null,
      firstTs: s.first_ts,
      // The refresh has just written it to the session's row (refresh-session.ts setCliPlace): read there, not parsed again.
      metadataParent: s.source === 'cli' && s.parent_id !== null && (s.relation === 'fork' || s.relation === 'child') ? { id: s.parent_id, kind: s.relation } : null,
    };
  }

  function deriveOne(id: string): void {
    const s = st.session.get(id) as { num: number; id: string; is_child: number; first_ts: number | null; parent_id: string | null; parent_span_id: string | null; source: string; relation: string | null } | undefined;
    if (!s) return;
    const facts = factsOf(s);
    const folder = facts.folderId ?? (facts.ref ? folderOf(facts.ref.holderId) : folderOf(s.id));
    const edge = chooseEdge(facts, (spanId) => {
      const t = st.tool.get({ span: spanId, num: s.num, folder, holder: facts.ref?.holderId ?? null, run: facts.ref?.rIdx ?? 0 }) as { id: string; tool: string | null } | undefined;
      return t ? { sessionId: t.id, tool: t.tool } : null;
    });
    if (!edge) {
      st.remove.run(id);
      return;
    }
    const before = (st.edge.get(id) as { parent_id: string } | undefined)?.parent_id;
    st.upsert.run(edge);
    // a fork found after its parent's refresh: the parent's count of children includes it now
    if (edge.kind !== 'child' && before !== edge.parentId) st.childCount.run({ id: edge.parentId });
    // sessions.parent_id says the same as the edge, so that a nested subagent is listed under the subagent that
    // started it and not under the folder's session.
    if (edge.kind === 'child' && s.parent_id !== edge.parentId) {
      st.reparent.run({ parent: edge.parentId, span: edge.toolSpanId, num: s.num });
      if (s.parent_id) st.childCount.run({ id: s.parent_id });
      st.childCount.run({ id: edge.parentId });
    }
  }

  return function deriveEdges(id: string): void {
    deriveOne(id);
    const s = st.session.get(id) as { num: number } | undefined;
    if (!s) return;
    const dependents = new Set<string>();
    for (const r of st.startedHere.all({ num: s.num, folder: folderOf(id) }) as { type: string; span_id: string | null; id: string }[]) {
      const child = r.type === 'child_session_ref' ? (r.span_id?.startsWith('child-ref-') ? r.span_id.slice('child-ref-'.length) : null) : r.id;
      if (child && child !== id) dependents.add(child);
    }
    for (const c of dependents) {
      const e = st.edge.get(c) as { parent_id: string } | undefined;
      if (e?.parent_id !== id) deriveOne(c);
    }
  };
}
