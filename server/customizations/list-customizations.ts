import type Database from 'better-sqlite3';
import { WINDOW_MS, type TimeWindow } from '../../shared/api';
import { rawLines } from '../db/raw-lines';
import { parseDiscovery, type CustomizationKind } from './parse-discovery';

/** The newest discovery entries read at most: enough for months of sessions, bounded for a huge index. */
export const MAX_DISCOVERY_EVENTS = 20_000;
const SESSIONS_NAMED = 10;

/** What to do about a skip, in plain words, when its reason is known (seed 004's "folder testing, name: testing2"). */
export function fixFor(kind: CustomizationKind, reason: string, name?: string, path?: string): string | null {
  const r = reason.toLowerCase();
  if (r.includes('name-mismatch') || r.includes('name mismatch')) {
    // ".github/skills/testing/SKILL.md" → the folder is "testing"
    const folder = path?.replace(/\\/g, '/').split('/').slice(-2, -1)[0];
    if (folder && name && folder !== name)
      return `its folder is "${folder}" but its file says name: ${name}; they must match: change it to name: ${folder}, or rename the folder to ${name}/, then start a new chat`;
    return 'the name: in its front matter differs from its folder name; make them the same (rename the folder or change name:), then start a new chat';
  }
  if (r.includes('missing-description') || r.includes('no description')) return 'add a description: line to its front matter';
  if (r.includes('missing-name')) return 'add a name: line to its front matter, the same as its folder name';
  if (r.includes('parse') || r.includes('yaml') || r.includes('front matter') || r.includes('frontmatter')) return 'its front matter is not valid YAML: fix the syntax between the --- lines';
  if (r.includes('not found') || r.includes('enoent') || r.includes('missing file')) return `the ${kind} file it names does not exist at that path`;
  if (r.includes('disabled')) return `it is turned off in settings: enable it to load it`;
  return null;
}

export interface CustomizationRow {
  kind: CustomizationKind;
  name: string;
  status: 'loaded' | 'skipped' | 'failed';
  reason: string | null;
  fix: string | null;
  sessions: number;
  /** the first few sessions, newest first */
  sessionIds: string[];
  lastSeen: number | null;
  /** the newest discovery event that reports it */
  eventId: number;
}

export interface CustomizationsResult {
  rows: CustomizationRow[];
  /** folders searched per kind, as the entries report them */
  folders: Record<string, string[]>;
  discoveryEvents: number;
  /** true when more than MAX_DISCOVERY_EVENTS entries exist: only the newest were read */
  capped: boolean;
}

export interface CustomizationsQuery {
  sessionId?: string;
  window?: TimeWindow;
  skippedOnly?: boolean;
}

interface EventRow {
  id: number;
  name: string;
  status: number;
  ts: number | null;
  session_id: string;
}

/**
 * Every customization the discovery entries mention (instruction files, skills, agents, hooks, prompt files),
 * with whether it was loaded, skipped (and why) or failed, in how many sessions. Replayed copies of a core
 * event (dup 1) count for the session they were replayed into: discovery is per window, and that session ran
 * with it. Repeats inside one file (dup 2) are the same line twice and are left out.
 */
export function listCustomizations(db: Database.Database, q: CustomizationsQuery, now = Date.now()): CustomizationsResult {
  const where = ["e.type = 'discovery'", 'e.dup < 2'];
  const params: unknown[] = [];
  if (q.sessionId !== undefined) {
    where.push('s.id = ?');
    params.push(q.sessionId);
  }
  const span = q.window ? WINDOW_MS[q.window] : null;
  if (span !== null && span !== undefined) {
    where.push('e.ts >= ?');
    params.push(now - span);
  }
  const events = db
    .prepare(`SELECT e.id, e.name, e.status, e.ts, s.id session_id FROM events e JOIN sessions s ON s.num = e.session_num WHERE ${where.join(' AND ')} ORDER BY e.id DESC LIMIT ?`)
    .all(...params, MAX_DISCOVERY_EVENTS + 1) as EventRow[];
  const capped = events.length > MAX_DISCOVERY_EVENTS;
  if (capped) events.pop();
  const texts = rawLines(db).texts(events.map((e) => e.id));
  const byKey = new Map<string, CustomizationRow & { seen: Set<string> }>();
  const folders = new Map<string, Set<string>>();
  const note = (e: EventRow, kind: CustomizationKind, name: string, status: CustomizationRow['status'], reason: string | null, path?: string) => {
    const key = JSON.stringify([kind, name, status, reason]);
    let row = byKey.get(key);
    if (!row) {
      row = { kind, name, status, reason, fix: reason && status === 'skipped' ? fixFor(kind, reason, name, path) : null, sessions: 0, sessionIds: [], lastSeen: e.ts, eventId: e.id, seen: new Set() };
      byKey.set(key, row);
    }
    if (!row.seen.has(e.session_id)) {
      row.seen.add(e.session_id);
      row.sessions++;
      if (row.sessionIds.length < SESSIONS_NAMED) row.sessionIds.push(e.session_id);
    }
    if (e.ts !== null && (row.lastSeen === null || e.ts > row.lastSeen)) row.lastSeen = e.ts;
  };
  for (const e of events) {
    let details: unknown;
    try {
      details = (JSON.parse(texts.get(e.id) ?? 'null') as { attrs?: { details?: unknown } } | null)?.attrs?.details;
    } catch {
      details = undefined;
    }
    const f = parseDiscovery(e.name, details, e.status === 1 ? 'error' : 'ok');
    if (f.folders.length > 0) {
      const set = folders.get(f.kind) ?? new Set<string>();
      for (const d of f.folders) set.add(d);
      folders.set(f.kind, set);
    }
    if (!q.skippedOnly) for (const name of f.loaded) note(e, f.kind, name, 'loaded', null);
    for (const s of f.skipped) note(e, f.kind, s.name, 'skipped', s.reason, s.path);
    if (f.error) note(e, f.kind, e.name, 'failed', f.error);
  }
  const order = { failed: 0, skipped: 1, loaded: 2 };
  const rows = [...byKey.values()]
    .map(({ seen: _seen, ...r }) => r)
    .sort((a, b) => order[a.status] - order[b.status] || b.sessions - a.sessions || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
  return { rows, folders: Object.fromEntries([...folders].map(([k, v]) => [k, [...v].sort()])), discoveryEvents: events.length, capped };
}
