import { chmod, mkdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkForDebugLogs } from './ancestor-walk';
import { resolveRoot, watchTargets } from './roots';
import { defaultUserDataDirs } from './user-data-dirs';
import { useTempDirs, writeTree } from './test-tree';

const newTempDir = useTempDirs();

const SESSION = '{"ts":1,"type":"session_start"}\n';

/**
 * home/
 *   .config/Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs/s1/main.jsonl
 *   .config/Code/User/workspaceStorage/bbb/            (a workspace without Copilot logs)
 *   .config/Code - Insiders/User/workspaceStorage/ccc/GitHub.copilot-chat/debug-logs/
 *   .config/VSCodium/User/globalStorage/                (a user-data dir with no workspaceStorage)
 *   .vscode-server/data/User/workspaceStorage/ddd/GitHub.copilot-chat/debug-logs/
 */
async function homeWithSeveralUserDataDirs() {
  const home = await newTempDir();
  const code = path.join(home, '.config', 'Code');
  const storage = path.join(code, 'User', 'workspaceStorage');
  await writeTree(home, {
    '.config/Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs/s1/main.jsonl': SESSION,
    '.config/Code/User/workspaceStorage/aaa/workspace.json': '{"folder": "file:///x"}',
    '.config/Code/User/workspaceStorage/bbb/state.vscdb': '',
    '.config/Code - Insiders/User/workspaceStorage/ccc/GitHub.copilot-chat/debug-logs/': null,
    '.config/VSCodium/User/globalStorage/': null,
    '.vscode-server/data/User/workspaceStorage/ddd/GitHub.copilot-chat/debug-logs/': null,
  });
  const aaa = {
    storageDir: path.join(storage, 'aaa'),
    workspaceId: 'aaa',
    debugLogsDir: path.join(storage, 'aaa', 'GitHub.copilot-chat', 'debug-logs'),
  };
  return { home, code, storage, aaa };
}

describe('resolveRoot', () => {
  it('a debug-logs folder: one workspace, storageDir is workspaceStorage/<id>', async () => {
    const { aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(aaa.debugLogsDir);
    expect(root).toEqual({ path: aaa.debugLogsDir, kind: 'debug-logs', exists: true, error: null });
    expect(workspaces).toEqual([aaa]);
  });

  it('a GitHub.copilot-chat folder: the debug-logs folder inside it', async () => {
    const { aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(path.dirname(aaa.debugLogsDir));
    expect(root.kind).toBe('debug-logs');
    expect(workspaces).toEqual([aaa]);
  });

  it('a workspaceStorage/<id> folder: its debug-logs folder', async () => {
    const { aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(aaa.storageDir);
    expect(root.kind).toBe('debug-logs');
    expect(workspaces).toEqual([aaa]);
  });

  it('a workspaceStorage/<id> folder without Copilot logs yet: no workspaces, and it is watched', async () => {
    const { storage } = await homeWithSeveralUserDataDirs();
    const bbb = path.join(storage, 'bbb');
    const { root, workspaces } = await resolveRoot(bbb);
    expect(root).toEqual({ path: bbb, kind: 'debug-logs', exists: true, error: null });
    expect(workspaces).toEqual([]);
    expect(watchTargets(root, workspaces)).toEqual([bbb]);
  });

  it('a workspaceStorage folder: every <id> with debug logs, others skipped', async () => {
    const { storage, aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(storage);
    expect(root.kind).toBe('workspaceStorage');
    expect(workspaces).toEqual([aaa]);
    expect(watchTargets(root, workspaces)).toEqual([storage, aaa.debugLogsDir]);
  });

  it('a user-data folder (…/Code): its User/workspaceStorage; User is watched for globalStorage and profiles to appear', async () => {
    const { code, storage, aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(code);
    expect(root).toEqual({ path: code, kind: 'userData', exists: true, error: null });
    expect(workspaces).toEqual([aaa]);
    expect(watchTargets(root, workspaces)).toEqual([storage, path.join(code, 'User'), aaa.debugLogsDir]);
  });

  it('the User folder of a user-data folder counts as the user-data folder', async () => {
    const { code, aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(path.join(code, 'User'));
    expect(root.kind).toBe('userData');
    expect(workspaces).toEqual([aaa]);
  });

  it('a user-data folder with no workspaceStorage yet: nothing found, its User and globalStorage folders are watched', async () => {
    const { home } = await homeWithSeveralUserDataDirs();
    const codium = path.join(home, '.config', 'VSCodium');
    const { root, workspaces } = await resolveRoot(codium);
    expect(root.kind).toBe('userData');
    expect(workspaces).toEqual([]);
    expect(watchTargets(root, workspaces)).toEqual([path.join(codium, 'User'), path.join(codium, 'User', 'globalStorage')]);
  });

  it('an ancestor two levels above several user-data dirs: every debug-logs folder under all of them', async () => {
    const { home, storage, aaa } = await homeWithSeveralUserDataDirs();
    const { root, workspaces } = await resolveRoot(home);
    expect(root).toEqual({ path: home, kind: 'ancestor', exists: true, error: null });
    expect(workspaces.map((w) => path.relative(home, w.debugLogsDir))).toEqual([
      '.config/Code - Insiders/User/workspaceStorage/ccc/GitHub.copilot-chat/debug-logs',
      '.config/Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs',
      '.vscode-server/data/User/workspaceStorage/ddd/GitHub.copilot-chat/debug-logs',
    ]);
    expect(workspaces).toContainEqual(aaa);
    expect(workspaces.map((w) => w.workspaceId)).toEqual(['ccc', 'aaa', 'ddd']);
    const targets = watchTargets(root, workspaces);
    expect(targets).toContain(storage);
    expect(targets).toContain(path.join(home, '.vscode-server/data/User/workspaceStorage'));
    expect(targets).toContain(aaa.debugLogsDir);
  });

  it('an ancestor: a workspaceStorage folder with no logs yet is still a watch target', async () => {
    const dir = await newTempDir();
    await writeTree(dir, { 'Code/User/workspaceStorage/eee/workspace.json': '{}' });
    const { root, workspaces } = await resolveRoot(dir);
    expect(workspaces).toEqual([]);
    expect(watchTargets(root, workspaces)).toEqual([path.join(dir, 'Code/User/workspaceStorage'), path.join(dir, 'Code/User')]);
  });

  it('a debug-logs folder copied outside the VS Code layout: storageDir is the folder, id a stable hash', async () => {
    const dir = await newTempDir();
    await writeTree(dir, { 'backup/debug-logs/s1/main.jsonl': SESSION });
    const logs = path.join(dir, 'backup', 'debug-logs');
    const direct = await resolveRoot(logs);
    expect(direct.workspaces).toHaveLength(1);
    expect(direct.workspaces[0].storageDir).toBe(logs);
    expect(direct.workspaces[0].debugLogsDir).toBe(logs);
    expect(direct.workspaces[0].workspaceId).toMatch(/^[0-9a-f]{32}$/);
    const walked = await resolveRoot(dir);
    expect(walked.workspaces).toEqual(direct.workspaces);
  });

  it('an ancestor walk skips node_modules, .git and debug-logs folders of other tools', async () => {
    const dir = await newTempDir();
    await writeTree(dir, {
      'node_modules/pkg/GitHub.copilot-chat/debug-logs/s1/main.jsonl': SESSION,
      '.git/x/GitHub.copilot-chat/debug-logs/s1/main.jsonl': SESSION,
      'other-tool/debug-logs/trace.txt': 'not ours',
    });
    expect((await resolveRoot(dir)).workspaces).toEqual([]);
  });

  it("an ancestor walk does not enter a Copilot CLI home's session folders (they hold no debug logs)", async () => {
    // ~/.copilot/session-state keeps a folder per CLI session, thousands of them (3,592 in the 1.6 GiB benchmark
    // corpus: 0.2–0.9 s of a walk from the folder holding it); `--copilot-home` reads them, not the walk.
    const dir = await newTempDir();
    const sessions = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`.copilot/session-state/s${i}/checkpoints/`, null]));
    await writeTree(dir, { ...sessions, 'Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs/s1/main.jsonl': SESSION });
    // A budget that the session folders alone would use up before the walk reaches Code (`.copilot` sorts first).
    const walk = await walkForDebugLogs(dir, { maxDepth: 8, maxDirs: 12 });
    expect({ truncated: walk.truncated, found: walk.workspaces.map((w) => w.workspaceId) }).toEqual({ truncated: false, found: ['aaa'] });
  });

  it('a missing path: exists false and an error, never a throw', async () => {
    const dir = await newTempDir();
    const missing = path.join(dir, 'nope', 'Code');
    const { root, workspaces } = await resolveRoot(missing);
    expect(root).toEqual({ path: missing, kind: 'userData', exists: false, error: `${missing} does not exist` });
    expect(workspaces).toEqual([]);
    expect(watchTargets(root, workspaces)).toEqual([]);
  });

  it('a missing debug-logs path keeps the kind its name says', async () => {
    const { root } = await resolveRoot('/nonexistent/ws/GitHub.copilot-chat/debug-logs');
    expect(root.kind).toBe('debug-logs');
    expect(root.exists).toBe(false);
  });

  it('a file instead of a folder: an error', async () => {
    const dir = await newTempDir();
    await writeTree(dir, { 'main.jsonl': SESSION });
    const file = path.join(dir, 'main.jsonl');
    const { root, workspaces } = await resolveRoot(file);
    expect(root).toMatchObject({ exists: true, error: `${file} is not a folder` });
    expect(workspaces).toEqual([]);
  });

  it('a relative path is resolved against the working directory', async () => {
    const { root } = await resolveRoot('some/relative/missing');
    expect(root.path).toBe(path.resolve('some/relative/missing'));
  });

  it('a symlink loop does not hang, and a linked user-data dir is found once', async () => {
    const { home } = await homeWithSeveralUserDataDirs();
    await symlink(home, path.join(home, 'loop'));
    await symlink(path.join(home, '.config'), path.join(home, '.config', 'Code', 'back-up'));
    await mkdir(path.join(home, 'links'));
    await symlink(path.join(home, '.config', 'Code'), path.join(home, 'links', 'code-link'));
    const { workspaces } = await resolveRoot(home);
    expect(workspaces.map((w) => w.workspaceId).sort()).toEqual(['aaa', 'ccc', 'ddd']);
  });

  it('a symlink to a debug-logs folder is followed', async () => {
    const { home, aaa } = await homeWithSeveralUserDataDirs();
    const elsewhere = await newTempDir();
    await symlink(path.dirname(aaa.debugLogsDir), path.join(elsewhere, 'GitHub.copilot-chat'));
    const { workspaces } = await resolveRoot(elsewhere);
    expect(workspaces.map((w) => w.debugLogsDir)).toEqual([path.join(elsewhere, 'GitHub.copilot-chat', 'debug-logs')]);
    expect(home).not.toBe(elsewhere);
  });

  it('the walk stops at depth 8', async () => {
    const dir = await newTempDir();
    const deep = 'a/b/c/d/e/f/g'; // workspaceStorage at depth 8 is found, at depth 9 is not
    await writeTree(dir, {
      [`${deep}/workspaceStorage/near/GitHub.copilot-chat/debug-logs/`]: null,
      [`${deep}/h/workspaceStorage/far/GitHub.copilot-chat/debug-logs/`]: null,
    });
    const { workspaces } = await resolveRoot(dir);
    expect(workspaces.map((w) => w.workspaceId)).toEqual(['near']);
  });

  it('the walk gives up after its directory budget and says so', async () => {
    const dir = await newTempDir();
    await writeTree(dir, { 'a/': null, 'b/': null, 'c/': null });
    const walk = await walkForDebugLogs(dir, { maxDepth: 8, maxDirs: 2 });
    expect(walk.truncated).toBe(true);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable folder inside the walk is skipped (EACCES)', async () => {
    const { home } = await homeWithSeveralUserDataDirs();
    const locked = path.join(home, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o000);
    try {
      const { root, workspaces } = await resolveRoot(home);
      expect(root.error).toBeNull();
      expect(workspaces).toHaveLength(3);
      expect((await resolveRoot(locked)).root).toEqual({
        path: locked,
        kind: 'ancestor',
        exists: true,
        error: `${locked} is not readable (permission denied)`,
      });
    } finally {
      await chmod(locked, 0o755);
    }
  });
});

/**
 * A user-data folder with every kind of root (FORMAT §1.1, §10.1):
 *   Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs/s1/main.jsonl   a workspace
 *   Code/User/globalStorage/github.copilot-chat/debug-logs/g1/main.jsonl          no workspace, default profile
 *   Code/User/globalStorage/github.copilot-chat/session-store.db                   (Chronicle's store, not logs)
 *   Code/User/globalStorage/ms-python.python/debug-logs/                          another extension's folder
 *   Code/User/profiles/p1/globalStorage/github.copilot-chat/debug-logs/p1s/main.jsonl  no workspace, profile p1
 *   Code/User/profiles/p2/settings.json                                           a profile without Copilot logs
 */
async function userDataWithEveryRoot() {
  const dir = await newTempDir();
  await writeTree(dir, {
    'Code/User/workspaceStorage/aaa/GitHub.copilot-chat/debug-logs/s1/main.jsonl': SESSION,
    'Code/User/workspaceStorage/aaa/workspace.json': '{"folder": "file:///x"}',
    'Code/User/globalStorage/github.copilot-chat/debug-logs/g1/main.jsonl': SESSION,
    'Code/User/globalStorage/github.copilot-chat/session-store.db': '',
    'Code/User/globalStorage/ms-python.python/debug-logs/': null,
    'Code/User/profiles/p1/globalStorage/github.copilot-chat/debug-logs/p1s/main.jsonl': SESSION,
    'Code/User/profiles/p2/settings.json': '{}',
  });
  const user = path.join(dir, 'Code', 'User');
  const workspace = {
    storageDir: path.join(user, 'workspaceStorage', 'aaa'),
    workspaceId: 'aaa',
    debugLogsDir: path.join(user, 'workspaceStorage', 'aaa', 'GitHub.copilot-chat', 'debug-logs'),
  };
  const global = {
    storageDir: path.join(user, 'globalStorage'),
    workspaceId: 'globalStorage',
    debugLogsDir: path.join(user, 'globalStorage', 'github.copilot-chat', 'debug-logs'),
    noWorkspace: true,
  };
  const profile = {
    storageDir: path.join(user, 'profiles', 'p1', 'globalStorage'),
    workspaceId: 'profiles/p1',
    debugLogsDir: path.join(user, 'profiles', 'p1', 'globalStorage', 'github.copilot-chat', 'debug-logs'),
    noWorkspace: true,
  };
  return { dir, user, workspace, global, profile };
}

describe('resolveRoot: the no-workspace roots, at every level of --logs', () => {
  it.each([
    ['the folder above the user-data folder', '', 'ancestor'],
    ['the user-data folder', 'Code', 'userData'],
    ['its User folder', 'Code/User', 'userData'],
  ])('%s: the workspace, the global root and every profile root', async (_what, rel, kind) => {
    const { dir, workspace, global, profile } = await userDataWithEveryRoot();
    const { root, workspaces } = await resolveRoot(path.join(dir, rel));
    expect(root.kind).toBe(kind);
    expect(workspaces).toEqual([global, profile, workspace]);
  });

  it.each([
    ['User/globalStorage', 'Code/User/globalStorage'],
    ['its github.copilot-chat folder', 'Code/User/globalStorage/github.copilot-chat'],
    ['its debug-logs folder', 'Code/User/globalStorage/github.copilot-chat/debug-logs'],
  ])('%s: the global root alone, with no workspace', async (_what, rel) => {
    const { dir, global } = await userDataWithEveryRoot();
    const { root, workspaces } = await resolveRoot(path.join(dir, rel));
    expect(root.kind).toBe('debug-logs');
    expect(workspaces).toEqual([global]);
  });

  it.each([
    ['User/profiles', 'Code/User/profiles', 'profiles'],
    ['one profile', 'Code/User/profiles/p1', 'ancestor'],
    ['its globalStorage', 'Code/User/profiles/p1/globalStorage', 'debug-logs'],
    ['its debug-logs folder', 'Code/User/profiles/p1/globalStorage/github.copilot-chat/debug-logs', 'debug-logs'],
  ])('%s: the profile root', async (_what, rel, kind) => {
    const { dir, profile } = await userDataWithEveryRoot();
    const { root, workspaces } = await resolveRoot(path.join(dir, rel));
    expect(root.kind).toBe(kind);
    expect(workspaces).toEqual([profile]);
  });

  it('a user-data folder is watched where a workspace, the global root or a profile can appear', async () => {
    const { dir, user, workspace, global, profile } = await userDataWithEveryRoot();
    const { root, workspaces } = await resolveRoot(path.join(dir, 'Code'));
    expect(watchTargets(root, workspaces)).toEqual([
      path.join(user, 'workspaceStorage'),
      path.join(user, 'globalStorage'),
      path.join(user, 'profiles'),
      // User/agentHostUsage (CLI sessions' per-call usage) does not exist yet: its parent is watched for it
      user,
      global.debugLogsDir,
      profile.debugLogsDir,
      workspace.debugLogsDir,
    ]);
  });

  it('an ancestor walk watches the same folders', async () => {
    const { dir, user } = await userDataWithEveryRoot();
    const { root, workspaces } = await resolveRoot(dir);
    const targets = watchTargets(root, workspaces);
    expect(targets).toEqual(expect.arrayContaining([path.join(user, 'workspaceStorage'), path.join(user, 'globalStorage'), path.join(user, 'profiles')]));
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable profiles or globalStorage folder: the other roots are still found, no throw', async () => {
    const { dir, user, workspace, global } = await userDataWithEveryRoot();
    const profiles = path.join(user, 'profiles');
    await chmod(profiles, 0o000);
    try {
      const { root, workspaces } = await resolveRoot(path.join(dir, 'Code'));
      expect(root.error).toBeNull();
      expect(workspaces).toEqual([global, workspace]);
    } finally {
      await chmod(profiles, 0o755);
    }
    const globalStorage = path.join(user, 'globalStorage');
    await chmod(globalStorage, 0o000);
    try {
      expect((await resolveRoot(path.join(dir, 'Code'))).workspaces.map((w) => w.workspaceId)).toEqual(['profiles/p1', 'aaa']);
    } finally {
      await chmod(globalStorage, 0o755);
    }
  });

  it('a profiles "folder" that is a file, a profile whose globalStorage is a file: skipped, the other roots found', async () => {
    const { dir, user, workspace, global } = await userDataWithEveryRoot();
    await writeTree(user, { 'profiles/p3/globalStorage': 'not a folder' });
    expect((await resolveRoot(path.join(dir, 'Code'))).workspaces.map((w) => w.workspaceId)).toEqual(['globalStorage', 'profiles/p1', 'aaa']);
    await rm(path.join(user, 'profiles'), { recursive: true });
    await writeTree(user, { profiles: 'not a folder' });
    const { root, workspaces } = await resolveRoot(path.join(dir, 'Code'));
    expect(root.error).toBeNull();
    expect(workspaces).toEqual([global, workspace]);
  });

  it('the default locations find the no-workspace roots: a remote server and a portable install too', async () => {
    const home = await newTempDir();
    await writeTree(home, {
      '.vscode-server/data/User/globalStorage/github.copilot-chat/debug-logs/r1/main.jsonl': SESSION,
      'portable/user-data/User/profiles/x/globalStorage/github.copilot-chat/debug-logs/q1/main.jsonl': SESSION,
    });
    const dirs = defaultUserDataDirs({ platform: 'linux', homedir: home, env: { VSCODE_PORTABLE: path.join(home, 'portable') } });
    const found = [];
    for (const d of dirs) found.push(...(await resolveRoot(d)).workspaces);
    expect(found.map((w) => [path.relative(home, w.debugLogsDir), w.noWorkspace])).toEqual([
      ['portable/user-data/User/profiles/x/globalStorage/github.copilot-chat/debug-logs', true],
      ['.vscode-server/data/User/globalStorage/github.copilot-chat/debug-logs', true],
    ]);
  });
});
