import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultUserDataDirs, readWorkspaceInfo, repositoryFromRemote, resolveRoot, watchTargets } from './discover';
import { useTempDirs, writeTree } from './discover/test-tree';

const newTempDir = useTempDirs();

describe('discover (the module the indexer imports)', () => {
  it('from a fake home: default dirs → roots → workspaces → workspace info', async () => {
    const home = await newTempDir();
    const proj = path.join(home, 'src', 'proj');
    await writeTree(home, {
      '.config/Code/User/workspaceStorage/w1/GitHub.copilot-chat/debug-logs/s1/main.jsonl': '{}\n',
      '.config/Code/User/workspaceStorage/w1/workspace.json': JSON.stringify({ folder: pathToFileURL(proj).href }),
      'src/proj/.git/HEAD': 'ref: refs/heads/main\n',
      'src/proj/.git/config': '[remote "origin"]\n\turl = git@github.com:me/proj.git\n',
    });
    const resolved = await Promise.all(defaultUserDataDirs({ platform: 'linux', homedir: home, env: {} }).map(resolveRoot));
    const existing = resolved.filter((r) => r.root.exists);
    expect(existing.map((r) => r.root.path)).toEqual([path.join(home, '.config', 'Code')]);
    const [{ root, workspaces }] = existing;
    expect(watchTargets(root, workspaces)).toEqual([
      path.join(home, '.config/Code/User/workspaceStorage'),
      path.join(home, '.config/Code/User'),
      path.join(home, '.config/Code/User/workspaceStorage/w1/GitHub.copilot-chat/debug-logs'),
    ]);
    expect(await readWorkspaceInfo(workspaces[0].storageDir)).toMatchObject({
      workspaceId: 'w1',
      kind: 'folder',
      folder: proj,
      repository: 'me/proj',
      branch: 'main',
    });
    expect(repositoryFromRemote('https://github.com/me/proj.git')).toBe('me/proj');
  });
});
