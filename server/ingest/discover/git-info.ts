import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseGitConfig, pickRemoteUrl } from './git-config';

export interface GitInfo {
  /** The working tree that holds the folder. */
  repoRoot: string;
  remoteUrl: string | null;
  branch: string | null;
}

interface GitDirs {
  workTree: string;
  /** Holds HEAD: `.git`, or `.git/worktrees/<name>` / `.git/modules/<name>` behind a `.git` file. */
  gitDir: string;
  /** Holds config: the same as gitDir except for linked worktrees (`commondir`). */
  commonDir: string;
}

/**
 * Reads the repository that contains `folder` straight from the files (no git binary): the remote URL from
 * config and the branch from HEAD. Null when no enclosing repository is found. Never throws.
 */
export async function readGitInfo(folder: string): Promise<GitInfo | null> {
  const dirs = await findGitDirs(folder);
  if (!dirs) return null;
  const config = (await readText(path.join(dirs.commonDir, 'config'))) ?? (await readText(path.join(dirs.gitDir, 'config')));
  const head = await readText(path.join(dirs.gitDir, 'HEAD'));
  return {
    repoRoot: dirs.workTree,
    remoteUrl: config === null ? null : pickRemoteUrl(parseGitConfig(config)),
    branch: head === null ? null : branchFromHead(head),
  };
}

/** `ref: refs/heads/x` gives x; a detached HEAD gives the abbreviated (7-character) commit. */
export function branchFromHead(head: string): string | null {
  const text = head.trim();
  const ref = /^ref:\s*(\S+)/.exec(text)?.[1];
  if (ref) return ref.replace(/^refs\/heads\//, '').replace(/^refs\//, '');
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(text)) return text.slice(0, 7).toLowerCase();
  return null;
}

/** Walks up from `start` to the first folder with a `.git` directory or `.git` file. */
async function findGitDirs(start: string): Promise<GitDirs | null> {
  let dir = path.resolve(start);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const info = await stat(dotGit).catch(() => null);
    if (info?.isDirectory()) return { workTree: dir, gitDir: dotGit, commonDir: dotGit };
    if (info?.isFile()) {
      const gitDir = await gitDirFromFile(dotGit);
      if (gitDir) return { workTree: dir, gitDir, commonDir: await commonDirOf(gitDir) };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** A `.git` file (linked worktree, submodule) holds `gitdir: <path>`, relative to the file's folder. */
async function gitDirFromFile(dotGitFile: string): Promise<string | null> {
  const text = await readText(dotGitFile);
  const target = text === null ? undefined : /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1];
  return target ? path.resolve(path.dirname(dotGitFile), target) : null;
}

async function commonDirOf(gitDir: string): Promise<string> {
  const text = await readText(path.join(gitDir, 'commondir'));
  return text === null || text.trim() === '' ? gitDir : path.resolve(gitDir, text.trim());
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}
