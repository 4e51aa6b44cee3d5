import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * One debug-logs folder: a workspace's (FORMAT §1.1: `workspaceStorage/<id>/GitHub.copilot-chat/debug-logs`) or a
 * no-workspace root (FORMAT §10.1: `[profiles/<id>/]globalStorage/github.copilot-chat/debug-logs`).
 */
export interface WorkspaceLogs {
  /** `workspaceStorage/<id>` or `[profiles/<id>/]globalStorage`; for a debug-logs folder outside that layout, the folder itself. */
  storageDir: string;
  /** the workspace's hash; `globalStorage` or `profiles/<id>` for a no-workspace root */
  workspaceId: string;
  debugLogsDir: string;
  /** set on the no-workspace roots: their sessions belong to no workspace */
  noWorkspace?: true;
  /**
   * A Copilot CLI `session-state` folder (INTEROP §3): `debugLogsDir` is that folder, one folder per session with
   * its events.jsonl; each session names its own folder and repository (workspace.yaml, session.start).
   */
  cli?: true;
  /** VS Code's `User/agentHostUsage` folder: per-call usage of CLI sessions, one `<sessionId>.jsonl` each (INTEROP §3) */
  agentHostUsage?: true;
}

export const AGENT_HOST_USAGE = 'agentHostUsage';

export function workspaceOfAgentHostUsage(dir: string): WorkspaceLogs {
  const workspaceId = createHash('md5').update(dir).digest('hex');
  return { storageDir: dir, workspaceId, debugLogsDir: dir, noWorkspace: true, agentHostUsage: true };
}

export const SESSION_STATE = 'session-state';

/** `<copilot home>/session-state` as a workspace of CLI sessions. */
export function workspaceOfSessionState(sessionStateDir: string): WorkspaceLogs {
  const workspaceId = createHash('md5').update(sessionStateDir).digest('hex');
  return { storageDir: sessionStateDir, workspaceId, debugLogsDir: sessionStateDir, noWorkspace: true, cli: true };
}

export const DEBUG_LOGS = 'debug-logs';
export const WORKSPACE_STORAGE = 'workspaceStorage';
export const GLOBAL_STORAGE = 'globalStorage';
export const PROFILES = 'profiles';
export const USER_DIR = 'User';
/** Global storage lower-cases the extension id (FORMAT §1.1); workspace storage keeps `GitHub.copilot-chat`. */
export const GLOBAL_COPILOT_CHAT = 'github.copilot-chat';

/** `[profiles/<id>/]globalStorage`: a folder whose Copilot logs belong to no workspace (FORMAT §10.1). */
export function isGlobalStorageDir(dir: string): boolean {
  return path.basename(dir) === GLOBAL_STORAGE;
}

/** The workspace folder keeps the publisher's case (`GitHub.copilot-chat`, FORMAT §1.1); accept any case. */
export function isCopilotChatDirName(name: string): boolean {
  return name.toLowerCase() === 'github.copilot-chat';
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/** Directory names under `dir` (symlinks followed), or [] when it cannot be read. */
export async function childDirNames(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path.join(dir, entry.name))))) {
      names.push(entry.name);
    }
  }
  return names.sort();
}

/** Describes a debug-logs folder wherever it sits; `storageDir` follows the `<id>/GitHub.copilot-chat/debug-logs` shape when present. */
export function workspaceOfDebugLogs(debugLogsDir: string): WorkspaceLogs {
  const extensionDir = path.dirname(debugLogsDir);
  if (isCopilotChatDirName(path.basename(extensionDir))) {
    const storageDir = path.dirname(extensionDir);
    if (isGlobalStorageDir(storageDir)) return { storageDir, workspaceId: globalRootId(storageDir), debugLogsDir, noWorkspace: true };
    return { storageDir, workspaceId: path.basename(storageDir), debugLogsDir };
  }
  // Outside the VS Code layout the folder name is always "debug-logs", which would make every such
  // folder the same workspace; a hash of the absolute path is stable and unique instead.
  const workspaceId = createHash('md5').update(debugLogsDir).digest('hex');
  return { storageDir: debugLogsDir, workspaceId, debugLogsDir };
}

/** `globalStorage` for the default profile, `profiles/<id>` for another one. */
function globalRootId(globalStorageDir: string): string {
  const owner = path.dirname(globalStorageDir);
  return path.basename(path.dirname(owner)) === PROFILES ? `${PROFILES}/${path.basename(owner)}` : GLOBAL_STORAGE;
}

/** The Copilot Chat debug-logs folders of one `workspaceStorage/<id>` or `globalStorage` folder (normally zero or one). */
export async function workspacesOfStorageDir(storageDir: string): Promise<WorkspaceLogs[]> {
  const found: WorkspaceLogs[] = [];
  for (const name of (await childDirNames(storageDir)).filter(isCopilotChatDirName)) {
    const debugLogsDir = path.join(storageDir, name, DEBUG_LOGS);
    if (await isDirectory(debugLogsDir)) found.push(workspaceOfDebugLogs(debugLogsDir));
  }
  return found;
}

export async function hasCopilotChatDir(dir: string): Promise<boolean> {
  return (await childDirNames(dir)).some(isCopilotChatDirName);
}

/** Every workspace with debug logs under one `workspaceStorage` folder. */
export async function workspacesInStorage(workspaceStorageDir: string): Promise<WorkspaceLogs[]> {
  const found: WorkspaceLogs[] = [];
  for (const id of await childDirNames(workspaceStorageDir)) {
    found.push(...(await workspacesOfStorageDir(path.join(workspaceStorageDir, id))));
  }
  return found;
}

/**
 * Every debug-logs folder of a VS Code `User` folder: one per workspace, the no-workspace root of the default
 * profile and one per other profile (FORMAT §1.1, §10.1).
 */
export async function logsOfUserDir(userDir: string): Promise<WorkspaceLogs[]> {
  const found = await workspacesInStorage(path.join(userDir, WORKSPACE_STORAGE));
  found.push(...(await workspacesOfStorageDir(path.join(userDir, GLOBAL_STORAGE))));
  for (const profile of await childDirNames(path.join(userDir, PROFILES))) {
    found.push(...(await workspacesOfStorageDir(path.join(userDir, PROFILES, profile, GLOBAL_STORAGE))));
  }
  if (await isDirectory(path.join(userDir, AGENT_HOST_USAGE))) found.push(workspaceOfAgentHostUsage(path.join(userDir, AGENT_HOST_USAGE)));
  return found;
}

/**
 * Where new log folders of a `User` folder appear, for a watcher: a workspace three levels below
 * workspaceStorage, the no-workspace root inside globalStorage, a new profile below profiles. Some do not exist yet.
 */
export function watchDirsOfUserDir(userDir: string): string[] {
  return [WORKSPACE_STORAGE, GLOBAL_STORAGE, PROFILES, AGENT_HOST_USAGE].map((name) => path.join(userDir, name));
}

/**
 * A folder named debug-logs met during a walk belongs to Copilot Chat if it sits in the extension's folder or
 * holds the session layout (FORMAT §2.1: `<sid>/main.jsonl` folders or legacy top-level `*.jsonl` files).
 * Other tools name folders "debug-logs" too.
 */
export async function looksLikeCopilotDebugLogs(dir: string): Promise<boolean> {
  if (isCopilotChatDirName(path.basename(path.dirname(dir)))) return true;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  if (entries.some((e) => e.isFile() && e.name.endsWith('.jsonl'))) return true;
  for (const entry of entries.filter((e) => e.isDirectory()).slice(0, 20)) {
    const names = await readdir(path.join(dir, entry.name)).catch(() => [] as string[]);
    if (names.includes('main.jsonl') || names.includes('models.json')) return true;
  }
  return false;
}
