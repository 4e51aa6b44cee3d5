import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsProblem } from '../../fs-problem';
import { walkForDebugLogs } from './ancestor-walk';
import {
  DEBUG_LOGS,
  GLOBAL_STORAGE,
  PROFILES,
  SESSION_STATE,
  USER_DIR,
  WORKSPACE_STORAGE,
  type WorkspaceLogs,
  childDirNames,
  hasCopilotChatDir,
  isCopilotChatDirName,
  isDirectory,
  isGlobalStorageDir,
  logsOfUserDir,
  watchDirsOfUserDir,
  workspacesInStorage,
  workspacesOfStorageDir,
  workspaceOfDebugLogs,
  workspaceOfSessionState,
} from './layout';

export type { WorkspaceLogs } from './layout';

/**
 * A place the user (`--logs`) or the defaults point at.
 * - `debug-logs`: one workspace's logs: a debug-logs, `GitHub.copilot-chat` or `workspaceStorage/<id>` folder, or
 *   a no-workspace root: a `[profiles/<id>/]globalStorage` folder or the `github.copilot-chat` folder in it.
 * - `workspaceStorage`: a `…/User/workspaceStorage` folder.
 * - `profiles`: a `…/User/profiles` folder: the no-workspace root of every profile.
 * - `userData`: a `<userDataDir>` (holds `User/`), or its `User` folder: every workspace, profile and no-workspace root.
 * - `ancestor`: any other folder, searched by a bounded walk.
 */
export interface LogRoot {
  path: string;
  kind: 'debug-logs' | 'workspaceStorage' | 'profiles' | 'userData' | 'ancestor';
  exists: boolean;
  error: string | null;
}

type Resolved = { root: LogRoot; workspaces: WorkspaceLogs[] };

/**
 * The folders an ancestor walk found new log folders can appear in (see WalkResult.containerDirs). `watchTargets`
 * needs them and they cannot be derived from the workspaces; keyed by the root object `resolveRoot` returned.
 */
const containerDirsOfWalk = new WeakMap<LogRoot, string[]>();

/** Resolves a `--logs` path or a default user-data dir into the debug-logs folders under it. Never throws. */
export async function resolveRoot(input: string): Promise<Resolved> {
  const abs = path.resolve(input);
  try {
    const info = await stat(abs);
    if (!info.isDirectory()) return { root: rootOf(abs, guessKindFromName(abs), true, `${abs} is not a folder`), workspaces: [] };
  } catch (err) {
    return { root: rootOf(abs, guessKindFromName(abs), false, fsProblem(abs, err)), workspaces: [] };
  }
  try {
    await readdir(abs);
  } catch (err) {
    return { root: rootOf(abs, guessKindFromName(abs, 'ancestor'), true, fsProblem(abs, err)), workspaces: [] };
  }
  try {
    return await classifyExisting(abs);
  } catch (err) {
    return { root: rootOf(abs, 'ancestor', true, fsProblem(abs, err)), workspaces: [] };
  }
}

async function classifyExisting(abs: string): Promise<Resolved> {
  const name = path.basename(abs);
  if (name === DEBUG_LOGS) return found(abs, 'debug-logs', [workspaceOfDebugLogs(abs)]);
  // Copilot CLI (INTEROP §3): a session-state folder, the copilot home holding one (~/.copilot, $COPILOT_HOME),
  // or one session's folder (its siblings come with it: they share the watcher of their session-state folder).
  if (name === SESSION_STATE) return found(abs, 'debug-logs', [workspaceOfSessionState(abs)]);
  if (await isDirectory(path.join(abs, SESSION_STATE))) return found(abs, 'debug-logs', [workspaceOfSessionState(path.join(abs, SESSION_STATE))]);
  if (path.basename(path.dirname(abs)) === SESSION_STATE) return found(abs, 'debug-logs', [workspaceOfSessionState(path.dirname(abs))]);
  if (isCopilotChatDirName(name)) {
    const debugLogsDir = path.join(abs, DEBUG_LOGS);
    return found(abs, 'debug-logs', (await isDirectory(debugLogsDir)) ? [workspaceOfDebugLogs(debugLogsDir)] : []);
  }
  if (name === WORKSPACE_STORAGE) return found(abs, 'workspaceStorage', await workspacesInStorage(abs));
  if (path.basename(path.dirname(abs)) === WORKSPACE_STORAGE || isGlobalStorageDir(abs) || (await hasCopilotChatDir(abs))) {
    return found(abs, 'debug-logs', await workspacesOfStorageDir(abs));
  }
  if (isProfilesDir(abs)) return found(abs, 'profiles', await logsOfProfiles(abs));
  const userDir = await userDirOf(abs);
  if (userDir) return found(abs, 'userData', await logsOfUserDir(userDir));

  const walk = await walkForDebugLogs(abs);
  const error = walk.truncated ? `stopped searching ${abs} after too many directories; pass a narrower --logs path` : null;
  const root = rootOf(abs, 'ancestor', true, error);
  containerDirsOfWalk.set(root, walk.containerDirs);
  return { root, workspaces: sortWorkspaces(walk.workspaces) };
}

/** `<userDataDir>/User` when `dir` is a user-data folder or its `User` folder. */
async function userDirOf(dir: string): Promise<string | null> {
  if (await isDirectory(path.join(dir, USER_DIR))) return path.join(dir, USER_DIR);
  if (path.basename(dir) === USER_DIR) return dir;
  return null;
}

/** The same, for a root already resolved as `userData` (a `User` folder holds no `User` folder). */
function userDirOfRoot(rootPath: string): string {
  return path.basename(rootPath) === USER_DIR && !existsSync(path.join(rootPath, USER_DIR)) ? rootPath : path.join(rootPath, USER_DIR);
}

/** `User/profiles`: named by VS Code, so only under a `User` folder (other tools have "profiles" folders too). */
function isProfilesDir(dir: string): boolean {
  return path.basename(dir) === PROFILES && path.basename(path.dirname(dir)) === USER_DIR;
}

async function logsOfProfiles(profilesDir: string): Promise<WorkspaceLogs[]> {
  const found: WorkspaceLogs[] = [];
  for (const id of await childDirNames(profilesDir)) found.push(...(await workspacesOfStorageDir(path.join(profilesDir, id, GLOBAL_STORAGE))));
  return found;
}

/**
 * The directories a watcher must watch so that new workspaces and sessions are noticed:
 * workspaceStorage folders (a new workspace appears as `<id>/GitHub.copilot-chat/debug-logs`, three levels
 * down), globalStorage and profiles folders (a no-workspace root appears as `github.copilot-chat/debug-logs`,
 * a profile's as `<id>/globalStorage/github.copilot-chat/debug-logs`) and debug-logs folders (a new session is a new child). A target that does not exist yet is replaced
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
    case 'profiles':
      targets.push(root.path);
      break;
    case 'userData':
      targets.push(...watchDirsOfUserDir(userDirOfRoot(root.path)));
      break;
    case 'ancestor':
      targets.push(...(containerDirsOfWalk.get(root) ?? []));
      break;
  }
  targets.push(...workspaces.map((w) => w.debugLogsDir));
  const existing = targets.map((t) => nearestExisting(t, root.path)).filter((t): t is string => t !== null);
  return [...new Set(existing)];
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
