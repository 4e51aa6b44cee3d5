import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTempDirs, writeTree } from './test-tree';
import { readWorkspaceInfo } from './workspace-info';

const newTempDir = useTempDirs();

/** A working tree at `root/rel` with remote origin `url` on branch `main`. */
function gitRepo(rel: string, url: string | null, head = 'ref: refs/heads/main\n'): Record<string, string> {
  return {
    [`${rel}/.git/HEAD`]: head,
    [`${rel}/.git/config`]: `[core]\n\trepositoryformatversion = 0\n${url ? `[remote "origin"]\n\turl = ${url}\n` : ''}`,
  };
}

/** The file URI VS Code would write for a local path (spaces and non-ASCII percent-encoded). */
const fileUri = (p: string) => pathToFileURL(p).href;

async function storageWith(files: Record<string, string | null>) {
  const dir = await newTempDir();
  await writeTree(dir, files);
  return { dir, storage: path.join(dir, 'workspaceStorage', 'abc123') };
}

describe('readWorkspaceInfo', () => {
  it('workspace.json {folder}: the folder, its GitHub repository and branch', async () => {
    const dir = await newTempDir();
    const proj = path.join(dir, 'proj');
    await writeTree(dir, {
      ...gitRepo('proj', 'git@github.com:o/r.git'),
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ folder: fileUri(proj) }, null, 2),
    });
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toEqual({
      storageDir: path.join(dir, 'workspaceStorage', 'abc123'),
      workspaceId: 'abc123',
      kind: 'folder',
      uri: fileUri(proj),
      folder: proj,
      folderExists: true,
      repository: 'o/r',
      remoteUrl: 'git@github.com:o/r.git',
      branch: 'main',
      error: null,
    });
  });

  it('percent-encoded URI with spaces and CJK, folder missing: decoded path, basename as repository', async () => {
    const { storage } = await storageWith({
      'workspaceStorage/abc123/workspace.json': '{"folder": "file:///home/me/my%20proj%E6%97%A5"}',
    });
    expect(await readWorkspaceInfo(storage)).toMatchObject({
      kind: 'folder',
      uri: 'file:///home/me/my%20proj%E6%97%A5',
      folder: '/home/me/my proj日',
      folderExists: false,
      repository: 'my proj日',
      remoteUrl: null,
      branch: null,
      error: 'folder /home/me/my proj日 does not exist',
    });
  });

  it('percent-encoded URI of a folder that exists: found and read', async () => {
    const dir = await newTempDir();
    const proj = path.join(dir, 'my proj日');
    await writeTree(dir, {
      ...gitRepo('my proj日', 'https://github.com/o/jp'),
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ folder: fileUri(proj) }),
    });
    expect(fileUri(proj)).toContain('my%20proj%E6%97%A5');
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toMatchObject({
      folder: proj,
      folderExists: true,
      repository: 'o/jp',
      error: null,
    });
  });

  it('workspace.json {workspace}: multi-root file with comments and trailing commas, first folder relative to the file', async () => {
    const dir = await newTempDir();
    const wsFile = path.join(dir, 'ws', 'all.code-workspace');
    await writeTree(dir, {
      ...gitRepo('repos/api', 'https://gitlab.com/g/sub/api.git'),
      ...gitRepo('repos/web', 'https://github.com/o/web.git'),
      'ws/all.code-workspace': `{
        // the API comes first
        "folders": [
          { "path": "../repos/api", }, // trailing comma above
          { "path": "../repos/web" },
        ],
        /* settings */ "settings": {},
      }`,
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ workspace: fileUri(wsFile) }),
    });
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toMatchObject({
      kind: 'workspace',
      uri: fileUri(wsFile),
      folder: path.join(dir, 'repos', 'api'),
      folderExists: true,
      repository: 'g/sub/api',
      branch: 'main',
      error: null,
    });
  });

  it('multi-root file whose first folder is given as a uri', async () => {
    const dir = await newTempDir();
    const wsFile = path.join(dir, 'w.code-workspace');
    await writeTree(dir, {
      'plain/': null,
      'w.code-workspace': JSON.stringify({ folders: [{ uri: fileUri(path.join(dir, 'plain')), name: 'Plain' }] }),
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ workspace: fileUri(wsFile) }),
    });
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toMatchObject({
      kind: 'workspace',
      folder: path.join(dir, 'plain'),
      repository: 'plain',
      error: null,
    });
  });

  it('multi-root file that is gone: an error, no folder', async () => {
    const { storage } = await storageWith({
      'workspaceStorage/abc123/workspace.json': '{"workspace": "file:///nonexistent/x.code-workspace"}',
    });
    expect(await readWorkspaceInfo(storage)).toMatchObject({
      kind: 'workspace',
      folder: null,
      repository: null,
      error: 'workspace file /nonexistent/x.code-workspace does not exist',
    });
  });

  it('multi-root file that is not JSON: an error', async () => {
    const dir = await newTempDir();
    const wsFile = path.join(dir, 'bad.code-workspace');
    await writeTree(dir, {
      'bad.code-workspace': '{ folders: [',
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ workspace: fileUri(wsFile) }),
    });
    expect((await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).error).toBe(
      `workspace file ${wsFile} is not valid JSON`,
    );
  });

  it('no workspace.json or meta.json: unknown, nothing else', async () => {
    const { storage } = await storageWith({ 'workspaceStorage/abc123/state.vscdb': '' });
    expect(await readWorkspaceInfo(storage)).toEqual({
      storageDir: storage,
      workspaceId: 'abc123',
      kind: 'unknown',
      uri: null,
      folder: null,
      folderExists: false,
      repository: null,
      remoteUrl: null,
      branch: null,
      error: 'no workspace.json or meta.json',
    });
  });

  it('a storage folder that does not exist: unknown, never a throw', async () => {
    expect(await readWorkspaceInfo('/nonexistent/workspaceStorage/zzz')).toMatchObject({ workspaceId: 'zzz', kind: 'unknown' });
  });

  it('workspace.json that is not valid JSON', async () => {
    const { storage } = await storageWith({ 'workspaceStorage/abc123/workspace.json': '{"folder": ' });
    expect(await readWorkspaceInfo(storage)).toMatchObject({ kind: 'unknown', error: 'workspace.json is not valid JSON' });
  });

  it('workspace.json with neither key', async () => {
    const { storage } = await storageWith({ 'workspaceStorage/abc123/workspace.json': '{"other": 1}' });
    expect((await readWorkspaceInfo(storage)).error).toBe('workspace.json names neither a folder nor a workspace');
  });

  it('meta.json of a remote single folder (no configuration): remote, no folder', async () => {
    const { storage } = await storageWith({
      'workspaceStorage/abc123/meta.json': JSON.stringify({ id: 'abc123', name: 'proj [SSH: box]' }, null, 2),
    });
    expect(await readWorkspaceInfo(storage)).toMatchObject({
      kind: 'remote',
      uri: null,
      folder: null,
      repository: null,
      error: null,
    });
  });

  it('meta.json of a remote multi-root workspace whose file is on this machine (running on the server)', async () => {
    const dir = await newTempDir();
    const wsFile = path.join(dir, 'remote.code-workspace');
    const configuration = `vscode-remote://ssh-remote%2Bbox${encodeURI(wsFile)}`;
    await writeTree(dir, {
      ...gitRepo('srv/app', 'https://dev.azure.com/org/proj/_git/app'),
      'remote.code-workspace': JSON.stringify({ folders: [{ path: 'srv/app' }] }),
      'workspaceStorage/abc123/meta.json': JSON.stringify({ id: 'abc123', configuration, name: 'remote (Workspace)' }),
    });
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toMatchObject({
      kind: 'remote',
      uri: configuration,
      folder: path.join(dir, 'srv', 'app'),
      folderExists: true,
      repository: 'org/proj/app',
      error: null,
    });
  });

  it('workspace.json naming a vscode-remote folder that is not on this machine', async () => {
    const { storage } = await storageWith({
      'workspaceStorage/abc123/workspace.json': '{"folder": "vscode-remote://wsl%2Bubuntu/nonexistent/me/proj"}',
    });
    expect(await readWorkspaceInfo(storage)).toMatchObject({
      kind: 'remote',
      folder: '/nonexistent/me/proj',
      folderExists: false,
      repository: 'proj',
      error: 'remote folder /nonexistent/me/proj is not on this machine',
    });
  });

  it('workspace.json wins over meta.json when both exist', async () => {
    const { storage } = await storageWith({
      'workspaceStorage/abc123/workspace.json': '{"folder": "file:///nonexistent/a"}',
      'workspaceStorage/abc123/meta.json': '{"id": "abc123", "name": "b"}',
    });
    expect(await readWorkspaceInfo(storage)).toMatchObject({ kind: 'folder', folder: '/nonexistent/a' });
  });

  it('a folder with no git repository: its basename', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'notes/readme.md': 'x',
      'workspaceStorage/abc123/workspace.json': JSON.stringify({ folder: fileUri(path.join(dir, 'notes')) }),
    });
    expect(await readWorkspaceInfo(path.join(dir, 'workspaceStorage', 'abc123'))).toMatchObject({
      folderExists: true,
      repository: 'notes',
      remoteUrl: null,
      branch: null,
      error: null,
    });
  });
});
