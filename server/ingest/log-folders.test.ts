import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInsideLogFolder, isInteresting, listLogFilesBelow, logFoldersBelow } from './log-folders';

const logs = '/u/Code/User/workspaceStorage/abc/GitHub.copilot-chat/debug-logs';

describe('which paths the folder-tree watcher follows', () => {
  it('follows the layout down to session folders, and nothing of other extensions', () => {
    expect(
      [
        '/u/Code/User/workspaceStorage',
        '/u/Code/User/workspaceStorage/abc',
        '/u/Code/User/workspaceStorage/abc/GitHub.copilot-chat',
        '/u/Code/User/workspaceStorage/abc/ms-python.python',
        logs,
        `${logs}/s1`,
        `${logs}/s1/main.jsonl`,
        `${logs}/s1/main.jsonl.tmp`,
        `${logs}/s1/deeper/x.jsonl`,
      ].map(isInteresting),
    ).toEqual([true, true, true, false, true, true, true, false, false]);
  });

  it('leaves the files of log folders to the folder watchers: session files, legacy flat logs, .tmp files', () => {
    expect(
      [logs, `${logs}/s1`, `${logs}/0b7c4e1a-1111-2222-3333-444455556666`, `${logs}/s1/main.jsonl`, `${logs}/s1/models.json`, `${logs}/legacy.jsonl`, `${logs}/x.tmp`, '/u/Code/User/workspaceStorage/abc'].map(
        isInsideLogFolder,
      ),
    ).toEqual([false, false, false, true, true, true, true, false]);
  });
});

describe('the folders to watch and the files to read below a new folder', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-log-folders-'));
  const ws = path.join(root, 'workspaceStorage', 'abc');
  const dl = path.join(ws, 'GitHub.copilot-chat', 'debug-logs');
  fs.mkdirSync(path.join(dl, 's1'), { recursive: true });
  fs.mkdirSync(path.join(dl, 's2'));
  fs.writeFileSync(path.join(dl, 's1', 'main.jsonl'), '');
  fs.writeFileSync(path.join(dl, 's1', 'main.jsonl.tmp'), '');
  fs.writeFileSync(path.join(dl, 'legacy.jsonl'), '');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const sorted = (a: string[]) => a.map((p) => path.relative(root, p)).sort();

  it('a new workspace: its debug-logs folder and every session folder in it', () => {
    expect(sorted(logFoldersBelow(ws))).toEqual(sorted([dl, path.join(dl, 's1'), path.join(dl, 's2')]));
    expect(sorted(listLogFilesBelow(ws))).toEqual(sorted([path.join(dl, 'legacy.jsonl'), path.join(dl, 's1', 'main.jsonl')]));
  });

  it('a new session folder: itself; a folder gone already: nothing', () => {
    expect(logFoldersBelow(path.join(dl, 's2'))).toEqual([path.join(dl, 's2')]);
    expect([logFoldersBelow(path.join(root, 'gone')), listLogFilesBelow(path.join(dl, 'gone'))]).toEqual([[], []]);
  });
});
