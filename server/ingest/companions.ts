import type Database from 'better-sqlite3';
import fs from 'node:fs';

export const MAX_COMPANION_BYTES = 32 * 1024 * 1024;

/**
 * The readable content of a companion file (FORMAT §2.2): `models.json` as written; a system prompt's
 * `content`; a tools file's `content`, which is a JSON *string* holding the array, so it is parsed twice
 * and pretty-printed (kept as-is when OTel cut it and it no longer parses).
 */
export function companionContent(kind: 'models' | 'system_prompt' | 'tools', text: string): string {
  if (kind === 'models') return text;
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
  info: { folderSessionId: string; name: string; companion: 'models' | 'system_prompt' | 'tools'; index: number | null },
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
  db.prepare(
    `INSERT INTO companions (path, session_id, name, kind, n, content, size, mtime, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)
     ON CONFLICT (path) DO UPDATE SET content = excluded.content, size = excluded.size, mtime = excluded.mtime, deleted_at = NULL`,
  ).run(file, info.folderSessionId, info.name, info.companion, info.index, companionContent(info.companion, text), stat.size, Math.trunc(stat.mtimeMs));
}

export function markCompanionDeleted(db: Database.Database, file: string): void {
  db.prepare('UPDATE companions SET deleted_at = ? WHERE path = ? AND deleted_at IS NULL').run(Date.now(), file);
}
