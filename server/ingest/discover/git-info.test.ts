import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { branchFromHead, readGitInfo } from './git-info';
import { useTempDirs, writeTree } from './test-tree';
import { readWorkspaceInfo } from './workspace-info';

const newTempDir = useTempDirs();
const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('readGitInfo', () => {
  it('a folder inside a repository: walks up to the repository root', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'repo/.git/HEAD': 'ref: refs/heads/feature/x\n',
      'repo/.git/config': '[remote "origin"]\n\turl = https://github.com/o/r.git\n',
      'repo/packages/app/src/': null,
    });
    expect(await readGitInfo(path.join(dir, 'repo', 'packages', 'app'))).toEqual({
      repoRoot: path.join(dir, 'repo'),
      remoteUrl: 'https://github.com/o/r.git',
      branch: 'feature/x',
    });
  });

  it('detached HEAD: the 7-character commit', async () => {
    const dir = await newTempDir();
    await writeTree(dir, { 'repo/.git/HEAD': `${SHA}\n`, 'repo/.git/config': '' });
    expect(await readGitInfo(path.join(dir, 'repo'))).toMatchObject({ branch: '0123456', remoteUrl: null });
  });

  it('linked worktree: `.git` file → worktrees/<name> for HEAD, commondir for config', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'main/.git/HEAD': 'ref: refs/heads/main\n',
      'main/.git/config': '[remote "origin"]\n\turl = git@github.com:o/r.git\n',
      'main/.git/worktrees/wt/HEAD': 'ref: refs/heads/hotfix\n',
      'main/.git/worktrees/wt/commondir': '../..\n',
      'wt/.git': `gitdir: ${path.join(dir, 'main', '.git', 'worktrees', 'wt')}\n`,
    });
    expect(await readGitInfo(path.join(dir, 'wt'))).toEqual({
      repoRoot: path.join(dir, 'wt'),
      remoteUrl: 'git@github.com:o/r.git',
      branch: 'hotfix',
    });
  });

  it('submodule: a relative `gitdir:` into the parent’s .git/modules', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'super/.git/HEAD': 'ref: refs/heads/main\n',
      'super/.git/config': '[remote "origin"]\n\turl = https://github.com/o/super\n',
      'super/.git/modules/lib/HEAD': `${SHA}\n`,
      'super/.git/modules/lib/config': '[remote "origin"]\n\turl = https://github.com/o/lib\n',
      'super/lib/.git': 'gitdir: ../.git/modules/lib\n',
    });
    expect(await readGitInfo(path.join(dir, 'super', 'lib'))).toEqual({
      repoRoot: path.join(dir, 'super', 'lib'),
      remoteUrl: 'https://github.com/o/lib',
      branch: '0123456',
    });
  });

  it('a `.git` file that points nowhere useful is skipped and the walk continues upward', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'outer/.git/HEAD': 'ref: refs/heads/main\n',
      'outer/.git/config': '',
      'outer/inner/.git': 'not a gitdir line\n',
    });
    expect((await readGitInfo(path.join(dir, 'outer', 'inner')))?.repoRoot).toBe(path.join(dir, 'outer'));
  });
});

describe('branchFromHead', () => {
  it.each([
    ['ref: refs/heads/main\n', 'main'],
    ['ref: refs/heads/users/me/topic', 'users/me/topic'],
    ['ref: refs/remotes/origin/x', 'remotes/origin/x'],
    [`${SHA.toUpperCase()}\n`, '0123456'],
    ['garbage', null],
  ])('%j → %s', (head, expected) => {
    expect(branchFromHead(head)).toBe(expected);
  });
});

describe('readWorkspaceInfo with git', () => {
  async function infoFor(files: Record<string, string | null>, folderRel: string) {
    const dir = await newTempDir();
    const folderUri = pathToFileURL(path.join(dir, folderRel)).href;
    await writeTree(dir, { ...files, 'ws/id1/workspace.json': JSON.stringify({ folder: folderUri }) });
    return readWorkspaceInfo(path.join(dir, 'ws', 'id1'));
  }

  it('detached HEAD in the workspace folder', async () => {
    const info = await infoFor({ 'p/.git/HEAD': SHA, 'p/.git/config': '[remote "origin"]\n url = https://github.com/o/r\n' }, 'p');
    expect(info).toMatchObject({ repository: 'o/r', branch: '0123456' });
  });

  it('worktree `.git` file in the workspace folder', async () => {
    const info = await infoFor(
      {
        'main/.git/config': '[remote "origin"]\n url = ssh://git@github.com/o/r.git\n',
        'main/.git/worktrees/wt/HEAD': 'ref: refs/heads/wt-branch',
        'main/.git/worktrees/wt/commondir': '../..',
        'wt/.git': 'gitdir: ../main/.git/worktrees/wt',
      },
      'wt',
    );
    expect(info).toMatchObject({ repository: 'o/r', branch: 'wt-branch', remoteUrl: 'ssh://github.com/o/r.git' });
  });

  it('a self-hosted remote with credentials: the URL without them, in repository and remoteUrl', async () => {
    const info = await infoFor(
      { 'p/.git/HEAD': 'ref: refs/heads/main', 'p/.git/config': '[remote "origin"]\n url = https://bob:tok@git.corp.example/x/y.git\n' },
      'p',
    );
    expect(info).toMatchObject({
      repository: 'https://git.corp.example/x/y.git',
      remoteUrl: 'https://git.corp.example/x/y.git',
    });
  });

  it('no "origin": the first remote', async () => {
    const info = await infoFor(
      {
        'p/.git/HEAD': 'ref: refs/heads/main',
        'p/.git/config': '[remote "upstream"]\n url = git@bitbucket.org:team/up.git\n[remote "fork"]\n url = git@bitbucket.org:me/up.git\n',
      },
      'p',
    );
    expect(info.repository).toBe('team/up');
  });

  it('a repository without remotes: named after its root, even when a subfolder is open', async () => {
    const info = await infoFor({ 'local-repo/.git/HEAD': 'ref: refs/heads/main', 'local-repo/.git/config': '', 'local-repo/sub/': null }, 'local-repo/sub');
    expect(info).toMatchObject({ repository: 'local-repo', remoteUrl: null, branch: 'main', folderExists: true });
  });
});
