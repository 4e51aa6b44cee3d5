import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  DEBUG_LOGS,
  SESSION_STATE,
  USER_DIR,
  WORKSPACE_STORAGE,
  type WorkspaceLogs,
  isCopilotChatDirName,
  isGlobalStorageDir,
  logsOfUserDir,
  looksLikeCopilotDebugLogs,
  watchDirsOfUserDir,
  workspacesInStorage,
  workspaceOfDebugLogs,
} from './layout';

export interface WalkLimits {
  /** Directories below the start that are still entered (the start is depth 0). */
  maxDepth: number;
  /** Stops a walk started at `/` or a huge home directory from running for minutes. */
  maxDirs: number;
}

export const DEFAULT_WALK_LIMITS: WalkLimits = { maxDepth: 8, maxDirs: 100_000 };

export interface WalkResult {
  workspaces: WorkspaceLogs[];
  /**
   * Folders new log folders can appear in, with or without logs yet (a watcher needs them): every workspaceStorage
   * folder met, and the globalStorage and profiles folders of every `User` folder met (some may not exist yet).
   */
  containerDirs: string[];
  /** True when `maxDirs` cut the walk short. */
  truncated: boolean;
}

// A Copilot CLI home's session-state holds a folder per CLI session (thousands) and never debug logs: the CLI's
// sessions come from `--copilot-home`, not from a walk, which spent 0.2–0.9 s entering them on the benchmark corpus.
const SKIPPED_NAMES = new Set(['node_modules', '.git', SESSION_STATE]);

/**
 * Finds debug-logs folders below any directory. Symlinks are followed (a user-data dir is often a
 * link), and each directory is entered once by dev:inode, so a link back to an ancestor ends there.
 * Unreadable directories are skipped.
 */
export async function walkForDebugLogs(start: string, limits: WalkLimits = DEFAULT_WALK_LIMITS): Promise<WalkResult> {
  const result: WalkResult = { workspaces: [], containerDirs: [], truncated: false };
  const entered = new Set<string>();
  let budget = limits.maxDirs;

  async function visit(dir: string, depth: number): Promise<void> {
    let info;
    try {
      info = await stat(dir);
    } catch {
      return;
    }
    if (!info.isDirectory()) return;
    const key = `${info.dev}:${info.ino}`;
    if (entered.has(key)) return;
    entered.add(key);
    if (budget-- <= 0) {
      result.truncated = true;
      return;
    }

    const name = path.basename(dir);
    if (name === USER_DIR) {
      result.containerDirs.push(...watchDirsOfUserDir(dir));
      result.workspaces.push(...(await logsOfUserDir(dir)));
      return;
    }
    if (name === WORKSPACE_STORAGE) {
      result.containerDirs.push(dir);
      result.workspaces.push(...(await workspacesInStorage(dir)));
      return;
    }
    if (name === DEBUG_LOGS && (await looksLikeCopilotDebugLogs(dir))) {
      result.workspaces.push(workspaceOfDebugLogs(dir));
      return;
    }
    if (depth >= limits.maxDepth) return;

    let names: string[];
    try {
      names = (await readdir(dir, { withFileTypes: true }))
        .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !SKIPPED_NAMES.has(e.name))
        .map((e) => e.name)
        .sort();
    } catch {
      return;
    }
    for (const child of onlyRelevantChildren(dir, names)) await visit(path.join(dir, child), depth + 1);
  }

  await visit(start, 0);
  return result;
}

/**
 * Inside a user-data folder only `User` can hold debug logs (the `User` folder itself is read by its layout);
 * the rest (extensions, caches, History) is large and skipped. Inside a globalStorage folder (a profile's, met
 * by a walk from `profiles/<id>`) only Copilot Chat's folder matters, not the hundreds of other extensions'.
 */
function onlyRelevantChildren(dir: string, names: string[]): string[] {
  if (names.includes(USER_DIR)) return [USER_DIR];
  if (isGlobalStorageDir(dir)) return names.filter(isCopilotChatDirName);
  return names;
}
