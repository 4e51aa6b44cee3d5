import fs from 'node:fs';
import path from 'node:path';
import { IMPORTED_WORKSPACE } from '../../shared/api';
import type { ImportedLine } from './to-entries';

/**
 * Imported sessions live in a user-data tree of their own beside the database (`<db>.imports/`), in one
 * workspace named IMPORTED_WORKSPACE: the indexer reads them like any other logs (same archive, search and
 * triage), and the workspace's name is what marks them "imported" everywhere they are shown.
 */
export { IMPORTED_WORKSPACE };

export function importsRoot(dbPath: string): string {
  return `${dbPath}.imports`;
}

export function importedLogsDir(root: string): string {
  return path.join(root, 'User', 'workspaceStorage', IMPORTED_WORKSPACE, 'GitHub.copilot-chat', 'debug-logs');
}

/** Copilot's file-name rule for a child log's label (FORMAT §2.3). */
function safeLabel(label: string): string {
  // eslint-disable-next-line no-control-regex
  return label.replace(/[/\\:*?"<>|\u0000-\u001f]/g, '_').replace(/\.\./g, '_');
}

export interface WrittenSession {
  sessionId: string;
  files: string[];
  lines: number;
}

/**
 * Writes each imported session as a debug-log folder: the root session's lines in main.jsonl, each other log
 * session's (subagents, title…) in `<label>-<id>.jsonl` beside it, named from its session_start or the ref
 * that names it. Each file is written whole and renamed into place, so the watcher never reads half of it.
 */
/**
 * The imports tree down to its debug-logs folder, with the workspace.json that names it. `serve` lays it out
 * before it starts, so that the folder is watched like any debug-logs folder and a session written into it
 * later (a dropped file) is indexed at once.
 */
export function ensureImportsTree(root: string): string {
  const logs = importedLogsDir(root);
  fs.mkdirSync(logs, { recursive: true });
  const wsFile = path.join(path.dirname(path.dirname(logs)), 'workspace.json');
  if (!fs.existsSync(wsFile)) fs.writeFileSync(wsFile, JSON.stringify({ folder: 'file:///imported' }, null, 2));
  return logs;
}

export function writeImported(root: string, lines: ImportedLine[], rootOf: (l: ImportedLine) => string): WrittenSession[] {
  const logs = ensureImportsTree(root);
  const byRoot = new Map<string, Map<string, ImportedLine[]>>();
  for (const l of lines) {
    const r = rootOf(l);
    const files = byRoot.get(r) ?? new Map<string, ImportedLine[]>();
    const list = files.get(l.sessionId) ?? [];
    list.push(l);
    files.set(l.sessionId, list);
    byRoot.set(r, files);
  }
  const written: WrittenSession[] = [];
  for (const [rootId, sessions] of byRoot) {
    const folder = path.join(logs, rootId.replace(/[/\\]/g, '_'));
    fs.mkdirSync(folder, { recursive: true });
    const labels = new Map<string, string>();
    for (const ls of sessions.values())
      for (const { entry } of ls) {
        const a = (entry.attrs ?? {}) as Record<string, unknown>;
        if (entry.type === 'child_session_ref' && typeof a.childSessionId === 'string' && typeof a.label === 'string') labels.set(a.childSessionId, a.label);
        if (entry.type === 'session_start' && typeof a.label === 'string' && typeof entry.sid === 'string') labels.set(entry.sid, a.label);
      }
    const files: string[] = [];
    let count = 0;
    for (const [sid, ls] of sessions) {
      const name = sid === rootId ? 'main.jsonl' : `${safeLabel(labels.get(sid) ?? 'child')}-${sid.replace(/[/\\]/g, '_')}.jsonl`;
      const file = path.join(folder, name);
      const tmp = `${file}.import-tmp`;
      fs.writeFileSync(tmp, ls.map((l) => JSON.stringify(l.entry) + '\n').join(''));
      fs.renameSync(tmp, file);
      files.push(file);
      count += ls.length;
    }
    written.push({ sessionId: rootId, files, lines: count });
  }
  return written;
}
