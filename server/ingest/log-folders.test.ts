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

  it('follows the no-workspace roots of the default profile and of every profile, and nothing else of User', () => {
    const user = '/u/Code/User';
    const global = `${user}/globalStorage/github.copilot-chat/debug-logs`;
    const profile = `${user}/profiles/p1/globalStorage/github.copilot-chat/debug-logs`;
    expect(
      [
        user,
        `${user}/globalStorage`,
        `${user}/globalStorage/github.copilot-chat`,
        `${user}/globalStorage/ms-python.python`,
        `${user}/globalStorage/github.copilot-chat/session-store.db`,
        global,
        `${global}/g1`,
        `${global}/g1/main.jsonl`,
        `${user}/profiles`,
        `${user}/profiles/p1`,
        `${user}/profiles/p1/globalStorage`,
        `${user}/profiles/p1/extensions.json`,
        `${user}/profiles/p1/globalStorage/github.copilot-chat`,
        `${user}/profiles/p1/globalStorage/other.ext`,
        profile,
        `${profile}/s1/main.jsonl`,
        `${user}/History`,
        `${user}/History/abc/entries.json`,
      ].map(isInteresting),
    ).toEqual([true, true, true, false, false, true, true, true, true, true, true, false, true, false, true, true, false, false]);
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

  it('a new no-workspace root: the lower-cased github.copilot-chat folder is followed too', () => {
    const gs = path.join(root, 'globalStorage');
    const gdl = path.join(gs, 'github.copilot-chat', 'debug-logs');
    fs.mkdirSync(path.join(gdl, 'g1'), { recursive: true });
    fs.writeFileSync(path.join(gdl, 'g1', 'main.jsonl'), '');
    expect(sorted(logFoldersBelow(gs))).toEqual(sorted([gdl, path.join(gdl, 'g1')]));
    expect(sorted(listLogFilesBelow(gs))).toEqual(sorted([path.join(gdl, 'g1', 'main.jsonl')]));
  });

  it('a new session folder: itself; a folder gone already: nothing', () => {
    expect(logFoldersBelow(path.join(dl, 's2'))).toEqual([path.join(dl, 's2')]);
    expect([logFoldersBelow(path.join(root, 'gone')), listLogFilesBelow(path.join(dl, 'gone'))]).toEqual([[], []]);
  });
});
