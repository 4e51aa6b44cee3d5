import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  DEBUG_LOGS,
  USER_DIR,
  WORKSPACE_STORAGE,
  type WorkspaceLogs,
  isDirectory,
  looksLikeCopilotDebugLogs,
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
  /** Every workspaceStorage folder met, including those with no Copilot logs yet (a watcher needs them). */
  workspaceStorageDirs: string[];
  /** True when `maxDirs` cut the walk short. */
  truncated: boolean;
}

const SKIPPED_NAMES = new Set(['node_modules', '.git']);

/**
 * Finds debug-logs folders below any directory. Symlinks are followed (a user-data dir is often a
 * link), and each directory is entered once by dev:inode, so a link back to an ancestor ends there.
 * Unreadable directories are skipped.
 */
export async function walkForDebugLogs(start: string, limits: WalkLimits = DEFAULT_WALK_LIMITS): Promise<WalkResult> {
  const result: WalkResult = { workspaces: [], workspaceStorageDirs: [], truncated: false };
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
    if (name === WORKSPACE_STORAGE) {
      result.workspaceStorageDirs.push(dir);
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
    for (const child of await onlyRelevantChildren(dir, names)) await visit(path.join(dir, child), depth + 1);
  }

  await visit(start, 0);
  return result;
}

/**
 * Inside a user-data folder only `User/workspaceStorage` can hold debug logs; the rest (extensions,
 * caches, History) is large and skipped.
 */
async function onlyRelevantChildren(dir: string, names: string[]): Promise<string[]> {
  if (path.basename(dir) === USER_DIR && names.includes(WORKSPACE_STORAGE)) return [WORKSPACE_STORAGE];
  if (names.includes(USER_DIR) && (await isDirectory(path.join(dir, USER_DIR, WORKSPACE_STORAGE)))) return [USER_DIR];
  return names;
}
