import fs from 'node:fs';
import path from 'node:path';

// What lies under the log folders: which paths matter, which folders to watch and which files to read. Names
// decide (the watcher asks before it stats); a folder that vanished or cannot be read lists as empty.

const isCopilotChat = (name: string | undefined) => name?.toLowerCase() === 'github.copilot-chat';

/**
 * Only the Copilot folders are worth watching inside a workspaceStorage or globalStorage with hundreds of other
 * extensions, and inside a `User` folder only the three that lead to them (FORMAT §1.1, §10.1):
 * `workspaceStorage/<id>/GitHub.copilot-chat/debug-logs`, `globalStorage/github.copilot-chat/debug-logs`,
 * `profiles/<id>/globalStorage/github.copilot-chat/debug-logs`.
 */
export function isInteresting(p: string): boolean {
  const parts = p.split(/[\\/]/);
  const below = (name: string) => {
    const at = parts.lastIndexOf(name);
    return at < 0 ? -1 : parts.length - 1 - at;
  };
  const logs = below('debug-logs');
  if (logs >= 0) return logs <= 2 && !p.endsWith('.tmp');
  // Copilot CLI: session-state/<id>/{events.jsonl, workspace.yaml, vscode.metadata.json} (checkpoints/ below: no)
  // VS Code's per-call usage of CLI sessions: User/agentHostUsage/<sessionId>.jsonl
  const usage = below('agentHostUsage');
  if (usage >= 0) return usage === 0 || (usage === 1 && p.endsWith('.jsonl'));
  const cli = below('session-state');
  if (cli >= 0) return cli <= 1 || (cli === 2 && CLI_SESSION_FILES.has(parts[parts.length - 1]));
  const ws = below('workspaceStorage');
  if (ws >= 0) return ws <= 1 || (ws === 2 && isCopilotChat(parts[parts.length - 1]));
  const gs = below('globalStorage');
  if (gs >= 0) return gs === 0 || (gs === 1 && isCopilotChat(parts[parts.length - 1]));
  const profiles = below('profiles');
  if (profiles >= 0) return profiles <= 1 || (profiles === 2 && parts[parts.length - 1] === 'globalStorage');
  const user = below('User');
  if (user >= 1) return user === 1 && ['workspaceStorage', 'globalStorage', 'profiles', 'agentHostUsage'].includes(parts[parts.length - 1]);
  return true; // a watch target above the layout (an ancestor root)
}

/** The files of a CLI session folder that are read (INTEROP §3). */
export const CLI_SESSION_FILES: ReadonlySet<string> = new Set(['events.jsonl', 'workspace.yaml', 'vscode.metadata.json']);

/** The folder a log folder hangs off: `debug-logs`, or a Copilot CLI `session-state`. */
function logsIndex(parts: string[]): number {
  return Math.max(parts.lastIndexOf('debug-logs'), parts.lastIndexOf('session-state'), parts.lastIndexOf('agentHostUsage'));
}

const isLogsDirName = (name: string) => name === 'debug-logs' || name === 'session-state' || name === 'agentHostUsage';

/** A debug-logs, Copilot CLI session-state or agentHostUsage folder: the folders whose session folders and files FolderWatch follows. */
export const isLogsDir = (dir: string) => isLogsDirName(path.basename(dir));

/**
 * A path inside a debug-logs folder that is not itself a session folder: a file of a session folder, or a file
 * directly in debug-logs (legacy flat logs, `.tmp` files). Decided by the name alone, before any stat.
 */
export function isInsideLogFolder(p: string): boolean {
  const parts = p.split(/[\\/]/);
  const logs = logsIndex(parts);
  if (logs < 0) return false;
  const below = parts.length - 1 - logs;
  return below >= 2 || (below === 1 && /\.(jsonl|json|tmp)$/i.test(p));
}

/** How many folder levels below each of its targets the roots' tree watcher follows (tree-watch.ts). */
export const TREE_DEPTH = 5;

/** What the roots' tree watcher follows: the layout's folders down to the log folders, none of their files. */
export function isFollowedByTree(p: string): boolean {
  return isInteresting(p) && !isInsideLogFolder(p);
}

function safeReaddir(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Every log and companion file of one debug-logs folder (session folders one level down, legacy files at top). */
export function listLogFiles(debugLogsDir: string): string[] {
  const out: string[] = [];
  const cli = path.basename(debugLogsDir) === 'session-state';
  for (const e of safeReaddir(debugLogsDir)) {
    const p = path.join(debugLogsDir, e.name);
    if (e.isDirectory()) {
      for (const c of safeReaddir(p)) if (c.isFile() && !c.name.endsWith('.tmp') && !(cli && !CLI_SESSION_FILES.has(c.name))) out.push(path.join(p, c.name));
    } else if (e.isFile() && e.name.endsWith('.jsonl')) {
      out.push(p);
    }
  }
  return out;
}

/** `dir/<GitHub|github>.copilot-chat/debug-logs` (workspace storage keeps the publisher's case, global storage lower-cases it). */
function nestedDebugLogs(dir: string): string | null {
  for (const ext of ['GitHub.copilot-chat', 'github.copilot-chat']) {
    const nested = path.join(dir, ext, 'debug-logs');
    if (fs.existsSync(nested)) return nested;
  }
  return null;
}

/** The folders whose files must be watched at or below `dir`: debug-logs folders and their session folders. */
export function logFoldersBelow(dir: string): string[] {
  const inLogs = (logs: string) => [logs, ...safeReaddir(logs).filter((e) => e.isDirectory()).map((e) => path.join(logs, e.name))];
  if (isLogsDirName(path.basename(dir))) return inLogs(dir);
  const parts = dir.split(path.sep);
  if (isLogsDirName(parts[parts.length - 2])) return [dir];
  const nested = nestedDebugLogs(dir);
  if (nested) return inLogs(nested);
  const logs = path.join(dir, 'debug-logs');
  return fs.existsSync(logs) ? inLogs(logs) : [];
}

export function listLogFilesBelow(dir: string): string[] {
  if (isLogsDirName(path.basename(dir))) return listLogFiles(dir);
  const parts = dir.split(path.sep);
  if (isLogsDirName(parts[parts.length - 2])) {
    const cli = parts[parts.length - 2] === 'session-state';
    return safeReaddir(dir)
      .filter((c) => c.isFile() && !c.name.endsWith('.tmp') && !(cli && !CLI_SESSION_FILES.has(c.name)))
      .map((c) => path.join(dir, c.name));
  }
  const nested = nestedDebugLogs(dir);
  if (nested) return listLogFiles(nested);
  const logs = path.join(dir, 'debug-logs');
  return fs.existsSync(logs) ? listLogFiles(logs) : [];
}
