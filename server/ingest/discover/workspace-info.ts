import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { readGitInfo } from './git-info';
import { isGlobalStorageDir } from './layout';
import { parseJsonc } from './jsonc';
import { remoteUrlWithoutCredentials, repositoryFromRemote } from './remote-url';
import { isFileUri, uriToPath } from './uri';

export interface WorkspaceInfo {
  storageDir: string;
  workspaceId: string;
  /** 'none': a no-workspace root (`[profiles/<id>/]globalStorage`, FORMAT §10.1): no folder, and not an error */
  kind: 'folder' | 'workspace' | 'remote' | 'unknown' | 'none';
  /** Raw URI from workspace.json / meta.json. */
  uri: string | null;
  /** Percent-decoded path: the folder, or a multi-root workspace's first folder; the remote path for remote URIs. */
  folder: string | null;
  folderExists: boolean;
  /** `owner/name` for known hosts, the remote URL for others, the folder's (or repo root's) name without a remote; null with no folder. */
  repository: string | null;
  /** The remote URL, credentials removed. */
  remoteUrl: string | null;
  branch: string | null;
  error: string | null;
}

/** What the storage folder's metadata file points at. */
interface Target {
  kind: WorkspaceInfo['kind'];
  uri: string | null;
  /** The URI names a `.code-workspace` file rather than a folder. */
  isWorkspaceFile: boolean;
}

/**
 * Describes the workspace a `workspaceStorage/<id>` folder belongs to (FORMAT §1.3), from workspace.json
 * (written by the desktop) or meta.json (written by a remote extension host), plus the git repository of its
 * folder. Problems are reported in `error`; never throws.
 */
const NOT_WORKSPACES: ReadonlySet<string> = new Set(['session-state', 'agentHostUsage']);

export async function readWorkspaceInfo(storageDir: string): Promise<WorkspaceInfo> {
  const info: WorkspaceInfo = {
    storageDir,
    workspaceId: path.basename(storageDir),
    kind: 'unknown',
    uri: null,
    folder: null,
    folderExists: false,
    repository: null,
    remoteUrl: null,
    branch: null,
    error: null,
  };
  // Copilot CLI session-state and agentHostUsage folders: each CLI session names its own folder (workspace.yaml)
  if (isGlobalStorageDir(storageDir) || NOT_WORKSPACES.has(path.basename(storageDir))) return { ...info, kind: 'none' };
  try {
    const target = await readTarget(storageDir);
    if (typeof target === 'string') return { ...info, error: target };
    Object.assign(info, { kind: target.kind, uri: target.uri });
    if (target.uri === null) return info;

    const folder = target.isWorkspaceFile ? await firstFolderOfWorkspaceFile(target.uri) : { folder: uriToPath(target.uri) };
    if ('error' in folder) return { ...info, error: folder.error };
    if (folder.folder === null) return info;
    return { ...info, ...(await describeFolder(folder.folder, target.kind === 'remote')) };
  } catch (err) {
    return { ...info, error: `could not read workspace info: ${messageOf(err)}` };
  }
}

async function readTarget(storageDir: string): Promise<Target | string> {
  const workspaceJson = await readJsonFile(path.join(storageDir, 'workspace.json'));
  if (workspaceJson.found) {
    if ('error' in workspaceJson) return `workspace.json ${workspaceJson.error}`;
    const value = workspaceJson.value as { folder?: unknown; workspace?: unknown } | null;
    if (typeof value?.folder === 'string') {
      return { kind: isFileUri(value.folder) ? 'folder' : 'remote', uri: value.folder, isWorkspaceFile: false };
    }
    if (typeof value?.workspace === 'string') {
      return { kind: isFileUri(value.workspace) ? 'workspace' : 'remote', uri: value.workspace, isWorkspaceFile: true };
    }
    return 'workspace.json names neither a folder nor a workspace';
  }
  const metaJson = await readJsonFile(path.join(storageDir, 'meta.json'));
  if (metaJson.found) {
    if ('error' in metaJson) return `meta.json ${metaJson.error}`;
    const configuration = (metaJson.value as { configuration?: unknown } | null)?.configuration;
    // meta.json exists only where the extension host had to create the folder itself, in practice on a
    // remote server. A single folder is not recorded in it (only a display name), so there is no URI then.
    if (typeof configuration === 'string') {
      return { kind: isFileUri(configuration) ? 'workspace' : 'remote', uri: configuration, isWorkspaceFile: true };
    }
    return { kind: 'remote', uri: null, isWorkspaceFile: false };
  }
  return 'no workspace.json or meta.json';
}

/** A multi-root workspace is attributed to its first folder; relative folder paths are relative to the file. */
async function firstFolderOfWorkspaceFile(uri: string): Promise<{ folder: string | null } | { error: string }> {
  const file = uriToPath(uri);
  if (file === null) return { error: `workspace URI ${uri} names no file` };
  const json = await readJsonFile(file, parseJsonc);
  if (!json.found) return { error: `workspace file ${file} does not exist` };
  if ('error' in json) return { error: `workspace file ${file} ${json.error}` };
  const folders = (json.value as { folders?: unknown } | null)?.folders;
  const first = Array.isArray(folders) ? (folders[0] as { path?: unknown; uri?: unknown } | undefined) : undefined;
  if (typeof first?.path === 'string') {
    const p = isFileUri(uri) ? path : path.posix;
    return { folder: p.resolve(p.dirname(file), first.path) };
  }
  if (typeof first?.uri === 'string') return { folder: uriToPath(first.uri) };
  return { error: `workspace file ${file} lists no folders` };
}

async function describeFolder(folder: string, isRemote: boolean): Promise<Partial<WorkspaceInfo>> {
  const exists = await stat(folder).then((s) => s.isDirectory(), () => false);
  if (!exists) {
    return {
      folder,
      folderExists: false,
      repository: lastSegment(folder),
      error: isRemote ? `remote folder ${folder} is not on this machine` : `folder ${folder} does not exist`,
    };
  }
  const git = await readGitInfo(folder);
  if (!git) return { folder, folderExists: true, repository: lastSegment(folder) };
  const remoteUrl = git.remoteUrl === null ? null : remoteUrlWithoutCredentials(git.remoteUrl);
  return {
    folder,
    folderExists: true,
    // A repository without remotes is still one project: name it after its root, not the subfolder opened.
    repository: git.remoteUrl === null ? lastSegment(git.repoRoot) : repositoryFromRemote(git.remoteUrl),
    remoteUrl,
    branch: git.branch,
  };
}

type JsonRead = { found: false } | { found: true; value: unknown } | { found: true; error: string };

async function readJsonFile(file: string, parse: (text: string) => unknown = JSON.parse): Promise<JsonRead> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { found: false };
    return { found: true, error: `could not be read: ${messageOf(err)}` };
  }
  try {
    return { found: true, value: parse(text) };
  } catch {
    return { found: true, error: 'is not valid JSON' };
  }
}

function lastSegment(p: string): string | null {
  const name = p.replace(/[\\/]+$/, '').split(/[\\/]/).pop();
  return name ? name : null;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
