import type Database from 'better-sqlite3';
import fs from 'node:fs';
import { lastLineId } from '../db/raw-lines';
import { statement } from '../db/statements';
import type { CompanionKind } from './log-paths';
import { VALUE_SEPARATOR, cjkTokens, foldWhitespace, hasCjk, valueStrings } from '../search/indexed-text';

export const MAX_COMPANION_BYTES = 32 * 1024 * 1024;

/**
 * The readable content of a companion file (FORMAT §2.2): `models.json` as written; a system prompt's
 * `content`; a tools file's `content`, which is a JSON *string* holding the array, so it is parsed twice
 * and pretty-printed (kept as-is when OTel cut it and it no longer parses).
 */
export function companionContent(kind: CompanionKind, text: string): string {
  if (kind !== 'system_prompt' && kind !== 'tools') return text;
  let outer: unknown;
  try {
    outer = JSON.parse(text);
  } catch {
    return text;
  }
  const content = (outer as { content?: unknown } | null)?.content;
  if (typeof content !== 'string') return text;
  if (kind === 'system_prompt') return content;
  try {
    return JSON.stringify(JSON.parse(content), null, 2);
  } catch {
    return content;
  }
}

/** Stores a companion file's content so that the UI still shows it after Copilot deletes the folder. */
export function storeCompanion(
  db: Database.Database,
  file: string,
  info: { folderSessionId: string; name: string; companion: CompanionKind; index: number | null },
): void {
  let text: string;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    if (!stat.isFile()) return;
    text = stat.size > MAX_COMPANION_BYTES ? `(file of ${stat.size} bytes not stored: over ${MAX_COMPANION_BYTES})` : fs.readFileSync(file, 'utf8');
  } catch {
    return; // vanished or unreadable between the event and the read; the next event retries
  }
  const content = companionContent(info.companion, text);
  // Statements from the connection's cache: prepared anew for each of the backfill's ~3,000 companions they were
  // 0.9% of the ingest thread in the newest week (most of its sessions are Copilot CLI ones, with workspace.yaml).
  // A lookup and a plain write, not an upsert: ON CONFLICT and RETURNING open a statement journal, and SQLite
  // then takes a savepoint on every FTS5 table in the transaction, which makes FTS5 write its pending terms out
  // as a segment: the group's 16 MB trigram hash cut short at every companion (docs/CONTRIBUTING.md, Performance).
  const known = statement(db, 'SELECT id FROM companions WHERE path = ?').get(file) as { id: number } | undefined;
  const mtime = Math.trunc(stat.mtimeMs);
  let id: number;
  if (known) {
    statement(db, 'UPDATE companions SET content = ?, size = ?, mtime = ?, deleted_at = NULL WHERE id = ?').run(content, stat.size, mtime, known.id);
    id = known.id;
  } else {
    const insert = statement(db, 'INSERT INTO companions (path, session_id, name, kind, n, content, size, mtime, at_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
    // its place among the lines: the last one archived, its session's own in a backfill (a folder's companions are
    // stored after its logs), so that search reads it with them (prompt-hits.ts)
    id = Number(insert.run(file, info.folderSessionId, info.name, info.companion, info.index, content, stat.size, mtime, lastLineId(db)).lastInsertRowid);
  }
  indexCompanion(db, id, info.companion, content);
}

/** Longest companion text indexed: a tools list with every MCP server's tools is a few hundred KB. */
export const MAX_COMPANION_INDEXED_CHARS = 4 * 1024 * 1024;

/**
 * The searchable text of a companion: a system prompt as written, a tools list by its strings (valueStrings,
 * like every JSON value of an entry). models.json is not the session's text but
 * the extension's model catalogue, the same in every session: a model a session used is in its llm_request.
 */
export function companionIndexText(kind: string, content: string | null): string {
  if (content === null || (kind !== 'system_prompt' && kind !== 'tools')) return '';
  const text = foldWhitespace(kind === 'tools' ? valueStrings(content).join(VALUE_SEPARATOR) : content);
  return text.length > MAX_COMPANION_INDEXED_CHARS ? text.slice(0, MAX_COMPANION_INDEXED_CHARS) : text;
}

/** (Re)writes a companion's rows in companion_text / companion_cjk (derived: rebuildDerived calls it for each). */
export function indexCompanion(db: Database.Database, id: number, kind: string, content: string | null): void {
  statement(db, 'DELETE FROM companion_text WHERE rowid = ?').run(id);
  statement(db, 'DELETE FROM companion_cjk WHERE rowid = ?').run(id);
  const text = companionIndexText(kind, content);
  if (text === '') return;
  statement(db, 'INSERT INTO companion_text (rowid, text) VALUES (?, ?)').run(id, text);
  if (hasCjk(text)) statement(db, 'INSERT INTO companion_cjk (rowid, text) VALUES (?, ?)').run(id, cjkTokens(text));
}

export function markCompanionDeleted(db: Database.Database, file: string): void {
  statement(db, 'UPDATE companions SET deleted_at = ? WHERE path = ? AND deleted_at IS NULL').run(Date.now(), file);
}
