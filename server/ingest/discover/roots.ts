import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { walkForDebugLogs } from './ancestor-walk';
import {
  DEBUG_LOGS,
  USER_DIR,
  WORKSPACE_STORAGE,
  type WorkspaceLogs,
  hasCopilotChatDir,
  isCopilotChatDirName,
  isDirectory,
  workspacesInStorage,
  workspacesOfStorageDir,
  workspaceOfDebugLogs,
} from './layout';

export type { WorkspaceLogs } from './layout';

/**
 * A place the user (`--logs`) or the defaults point at.
 * - `debug-logs`: one workspace's logs: a debug-logs, `GitHub.copilot-chat` or `workspaceStorage/<id>` folder.
 * - `workspaceStorage`: a `…/User/workspaceStorage` folder.
 * - `userData`: a `<userDataDir>` (holds `User/`), or its `User` folder.
 * - `ancestor`: any other folder, searched by a bounded walk.
 */
export interface LogRoot {
  path: string;
  kind: 'debug-logs' | 'workspaceStorage' | 'userData' | 'ancestor';
  exists: boolean;
  error: string | null;
}

type Resolved = { root: LogRoot; workspaces: WorkspaceLogs[] };

/**
 * workspaceStorage folders an ancestor walk met with no debug logs in them yet. `watchTargets` needs them
 * and they cannot be derived from the workspaces; keyed by the root object `resolveRoot` returned.
 */
const emptyStorageDirsOfWalk = new WeakMap<LogRoot, string[]>();

/** Resolves a `--logs` path or a default user-data dir into the debug-logs folders under it. Never throws. */
export async function resolveRoot(input: string): Promise<Resolved> {
  const abs = path.resolve(input);
  try {
    const info = await stat(abs);
    if (!info.isDirectory()) return { root: rootOf(abs, guessKindFromName(abs), true, `${abs} is not a directory`), workspaces: [] };
  } catch (err) {
    return { root: rootOf(abs, guessKindFromName(abs), false, describeFsError(abs, err)), workspaces: [] };
  }
  try {
    await readdir(abs);
  } catch (err) {
    return { root: rootOf(abs, guessKindFromName(abs, 'ancestor'), true, describeFsError(abs, err)), workspaces: [] };
  }
  try {
    return await classifyExisting(abs);
  } catch (err) {
    return { root: rootOf(abs, 'ancestor', true, describeFsError(abs, err)), workspaces: [] };
  }
}

async function classifyExisting(abs: string): Promise<Resolved> {
  const name = path.basename(abs);
  if (name === DEBUG_LOGS) return found(abs, 'debug-logs', [workspaceOfDebugLogs(abs)]);
  if (isCopilotChatDirName(name)) {
    const debugLogsDir = path.join(abs, DEBUG_LOGS);
    return found(abs, 'debug-logs', (await isDirectory(debugLogsDir)) ? [workspaceOfDebugLogs(debugLogsDir)] : []);
  }
  if (name === WORKSPACE_STORAGE) return found(abs, 'workspaceStorage', await workspacesInStorage(abs));
  if (path.basename(path.dirname(abs)) === WORKSPACE_STORAGE || (await hasCopilotChatDir(abs))) {
    return found(abs, 'debug-logs', await workspacesOfStorageDir(abs));
  }
  const storage = await userDataStorageDir(abs);
  if (storage) return found(abs, 'userData', await workspacesInStorage(storage));

  const walk = await walkForDebugLogs(abs);
  const error = walk.truncated ? `stopped searching ${abs} after too many directories; pass a narrower --logs path` : null;
  const root = rootOf(abs, 'ancestor', true, error);
  const withLogs = new Set(walk.workspaces.map((w) => path.dirname(w.storageDir)));
  emptyStorageDirsOfWalk.set(root, walk.workspaceStorageDirs.filter((d) => !withLogs.has(d)));
  return { root, workspaces: sortWorkspaces(walk.workspaces) };
}

/** `<userDataDir>/User/workspaceStorage` when `dir` is a user-data folder or its `User` folder. */
async function userDataStorageDir(dir: string): Promise<string | null> {
  if (await isDirectory(path.join(dir, USER_DIR))) return path.join(dir, USER_DIR, WORKSPACE_STORAGE);
  if (path.basename(dir) === USER_DIR && (await isDirectory(path.join(dir, WORKSPACE_STORAGE)))) {
    return path.join(dir, WORKSPACE_STORAGE);
  }
  return null;
}

/**
 * The directories a watcher must watch so that new workspaces and sessions are noticed:
 * workspaceStorage folders (a new workspace appears as `<id>/GitHub.copilot-chat/debug-logs`, three levels
 * down) and debug-logs folders (a new session is a new child). A target that does not exist yet is replaced
 * by its nearest existing parent inside the root; when anything appears there, resolve the root again.
 * A root that does not exist has no targets.
 */
export function watchTargets(root: LogRoot, workspaces: WorkspaceLogs[]): string[] {
  if (!root.exists) return [];
  const targets: string[] = [];
  switch (root.kind) {
    case 'debug-logs':
      // A GitHub.copilot-chat or <id> folder whose debug-logs folder has not been created yet.
      if (workspaces.length === 0) targets.push(root.path);
      break;
    case 'workspaceStorage':
      targets.push(root.path);
      break;
    case 'userData':
      targets.push(
        path.basename(root.path) === USER_DIR && !existsSync(path.join(root.path, USER_DIR))
          ? path.join(root.path, WORKSPACE_STORAGE)
          : path.join(root.path, USER_DIR, WORKSPACE_STORAGE),
      );
      break;
    case 'ancestor':
      targets.push(...storageDirsOf(workspaces), ...(emptyStorageDirsOfWalk.get(root) ?? []));
      break;
  }
  targets.push(...workspaces.map((w) => w.debugLogsDir));
  const existing = targets.map((t) => nearestExisting(t, root.path)).filter((t): t is string => t !== null);
  return [...new Set(existing)];
}

function storageDirsOf(workspaces: WorkspaceLogs[]): string[] {
  return workspaces.map((w) => path.dirname(w.storageDir)).filter((d) => path.basename(d) === WORKSPACE_STORAGE);
}

function nearestExisting(target: string, rootPath: string): string | null {
  const inside = rootPath.endsWith(path.sep) ? rootPath : rootPath + path.sep;
  let current = target;
  while (!existsSync(current)) {
    if (current === rootPath || !current.startsWith(inside)) return null;
    current = path.dirname(current);
  }
  return current;
}

/** For a path that cannot be examined, the kind its name suggests (a missing default dir is a user-data dir). */
function guessKindFromName(abs: string, otherwise: LogRoot['kind'] = 'userData'): LogRoot['kind'] {
  const name = path.basename(abs);
  if (name === DEBUG_LOGS || isCopilotChatDirName(name)) return 'debug-logs';
  if (name === WORKSPACE_STORAGE) return 'workspaceStorage';
  return otherwise;
}

function describeFsError(abs: string, err: unknown): string {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return `${abs} does not exist`;
  if (code === 'EACCES' || code === 'EPERM') return `${abs} is not readable (permission denied)`;
  if (code === 'ENOTDIR') return `${abs} is not a directory`;
  return `${abs}: ${err instanceof Error ? err.message : String(err)}`;
}

function rootOf(abs: string, kind: LogRoot['kind'], exists: boolean, error: string | null): LogRoot {
  return { path: abs, kind, exists, error };
}

function found(abs: string, kind: LogRoot['kind'], workspaces: WorkspaceLogs[]): Resolved {
  return { root: rootOf(abs, kind, true, null), workspaces: sortWorkspaces(workspaces) };
}

function sortWorkspaces(workspaces: WorkspaceLogs[]): WorkspaceLogs[] {
  const unique = new Map(workspaces.map((w) => [w.debugLogsDir, w]));
  return [...unique.values()].sort((a, b) => (a.debugLogsDir < b.debugLogsDir ? -1 : a.debugLogsDir > b.debugLogsDir ? 1 : 0));
}
