import type Database from 'better-sqlite3';
import type { EventDetail } from '../../shared/api';
import { boundJsonDepth, setOwn } from '../../shared/json-depth';
import { rawLines } from '../db/raw-lines';
import { argumentsBefore } from '../ingest/cli/start-arguments';
import { lineAttrs } from '../ingest/normalize';

interface Row {
  id: number;
  session_num: number;
  type: string;
  name: string | null;
  span_id: string | null;
  parent_span_id: string | null;
  status: number;
  ts: number | null;
  dur: number;
  r_idx: number;
  model: string | null;
  tool: string | null;
  ttft: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_cached: number | null;
  error: string | null;
  dup: number;
  line_no: number;
  byte_offset: number;
  file_id: number;
  path: string;
  file_kind: string;
  deleted_at: number | null;
  folder_session_id: string | null;
  session_id: string;
}

/** Cuts a string to `max` characters without splitting a surrogate pair. */
export function cutString(s: string, max: number): string {
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return s.slice(0, end);
}

/** Companion attrs of a model call, by the file name they hold (FORMAT §2.2). */
const COMPANION_ATTRS = ['systemPromptFile', 'toolsFile'];

/**
 * GET /api/events/:id: one event whole: every attr (nested at most MAX_JSON_DEPTH levels), the raw line, where
 * it came from, and for a model call the companion files in effect. With `maxChars`, every string (attrs, raw) is cut there and `cut` names
 * what was cut with its full length, so a 10 MB value never has to cross the wire to be looked at.
 */
export function getEventDetail(db: Database.Database, id: number, maxChars?: number): EventDetail | null {
  const r = db
    .prepare(
      `SELECT e.id, e.type, e.name, e.span_id, e.parent_span_id, e.status, e.ts, e.dur, e.r_idx, e.model, e.tool, e.ttft,
         e.tokens_in, e.tokens_out, e.tokens_cached, e.error, e.dup, e.session_num, l.line_no, l.byte_offset,
         f.id file_id, f.path, f.kind file_kind, f.deleted_at, f.folder_session_id, s.id session_id
       FROM events e JOIN lines l ON l.id = e.id JOIN files f ON f.id = e.file_id JOIN sessions s ON s.num = e.session_num
       WHERE e.id = ?`,
    )
    .get(id) as Row | undefined;
  if (!r) return null;
  const raw = rawLines(db).text(r.id) ?? '';
  let attrs: Record<string, unknown> = {};
  try {
    const parsed = lineAttrs(JSON.parse(raw));
    if (parsed) attrs = boundJsonDepth(parsed) as Record<string, unknown>;
  } catch {
    /* archived as an event, so it parsed once; keep the raw line as the only content */
  }
  // A Copilot CLI completion names no arguments: they are on its start line, and a call is read whole here.
  if (r.file_kind === 'cli' && r.type === 'tool_call' && r.span_id !== null && !Object.hasOwn(attrs, 'arguments')) {
    const args = argumentsBefore(db, r.session_num, r.span_id, r.id);
    if (args !== undefined) setOwn(attrs, 'arguments', boundJsonDepth(args));
  }
  const cut: Record<string, number> = {};
  if (maxChars !== undefined) {
    for (const [k, v] of Object.entries(attrs)) {
      if (typeof v === 'string' && v.length > maxChars) {
        cut[k] = v.length;
        setOwn(attrs, k, cutString(v, maxChars));
      }
    }
  }
  const companions: EventDetail['companions'] = [];
  const folder = r.folder_session_id ?? r.session_id;
  if (r.type === 'llm_request') {
    const byName = db.prepare('SELECT id, kind FROM companions WHERE session_id = ? AND name = ?');
    for (const attr of COMPANION_ATTRS) {
      const name = attrs[attr];
      if (typeof name !== 'string' || name === '') continue;
      const c = byName.get(folder, name) as { id: number; kind: string } | undefined;
      companions.push({ attr, name, kind: c?.kind ?? (attr === 'toolsFile' ? 'tools' : 'system_prompt'), id: c?.id ?? null });
    }
    const models = db.prepare("SELECT id, name FROM companions WHERE session_id = ? AND kind = 'models' ORDER BY id LIMIT 1").get(folder) as { id: number; name: string } | undefined;
    if (models) companions.push({ attr: null, name: models.name, kind: 'models', id: models.id });
  }
  return {
    id: r.id,
    sessionId: r.session_id,
    folderSessionId: r.folder_session_id,
    type: r.type,
    name: r.name ?? r.type,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    status: r.status === 1 ? 'error' : 'ok',
    ts: r.ts,
    dur: r.dur,
    rIdx: r.r_idx,
    model: r.model,
    tool: r.tool,
    ttft: r.ttft,
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
    tokensCached: r.tokens_cached,
    error: r.error !== null && maxChars !== undefined && r.error.length > maxChars ? cutString(r.error, maxChars) : r.error,
    dup: r.dup,
    attrs,
    cut,
    raw: maxChars !== undefined && raw.length > maxChars ? cutString(raw, maxChars) : raw,
    rawLength: raw.length,
    file: { id: r.file_id, path: r.path, kind: r.file_kind, lineNo: r.line_no, byteOffset: r.byte_offset, deleted: r.deleted_at !== null },
    companions,
  };
}
