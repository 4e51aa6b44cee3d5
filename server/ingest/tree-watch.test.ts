// The roots' tree watch (tree-watch.ts): which folders it watches (the tree above the logs folders, never a logs
// folder or a session folder: those are FolderWatch's), what it reports when folders appear or go away, and that a
// followed logs folder is not reported again when a session folder is created inside it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TreeWatch } from './tree-watch';
import { until } from '../test-support/until';

let root: string | null = null;
let tree: TreeWatch | null = null;
afterEach(() => {
  tree?.close();
  tree = null;
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = null;
});

function setUp(followedLogs: Set<string> = new Set()) {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-tree-watch-'));
  const storage = path.join(root, 'User', 'workspaceStorage');
  const logs = path.join(storage, 'ws1', 'GitHub.copilot-chat', 'debug-logs');
  fs.mkdirSync(path.join(logs, 's1'), { recursive: true });
  fs.writeFileSync(path.join(logs, 's1', 'main.jsonl'), '');
  fs.writeFileSync(path.join(storage, 'ws1', 'workspace.json'), '{}');
  fs.mkdirSync(path.join(storage, 'ws1', 'ms-python.python')); // another extension's folder: not followed
  const seen: string[] = [];
  tree = new TreeWatch({
    addDir: (d) => seen.push(`add ${path.relative(root!, d)}`),
    unlinkDir: (d) => seen.push(`unlink ${path.relative(root!, d)}`),
    followed: (d) => followedLogs.has(d),
  });
  tree.add(storage, false);
  return { storage, logs, seen, rel: (d: string) => path.relative(root!, d) };
}

const watched = (t: TreeWatch, folders: string[]) => folders.filter((f) => t.has(f));

describe('the roots tree watch', () => {
  it('watches the folders above the logs folders, and reports nothing of what was there', () => {
    const { storage, logs, seen } = setUp();
    const ws1 = path.join(storage, 'ws1');
    const all = [storage, ws1, path.join(ws1, 'GitHub.copilot-chat'), logs, path.join(logs, 's1'), path.join(ws1, 'ms-python.python')];
    expect(watched(tree!, all)).toEqual([storage, ws1, path.join(ws1, 'GitHub.copilot-chat')]);
    expect(tree!.size).toBe(3);
    expect(seen).toEqual([]);
  });

  it('a new workspace made at once (mkdir -p): each folder reported parents first, its tree folders watched', async () => {
    const { storage, seen } = setUp();
    fs.mkdirSync(path.join(storage, 'ws2', 'GitHub.copilot-chat', 'debug-logs', 's2'), { recursive: true });
    const want = ['add User/workspaceStorage/ws2', 'add User/workspaceStorage/ws2/GitHub.copilot-chat', 'add User/workspaceStorage/ws2/GitHub.copilot-chat/debug-logs'];
    await until(() => seen.length, (n) => n >= 3);
    expect(seen.slice(0, 3)).toEqual(want);
    expect(tree!.has(path.join(storage, 'ws2'))).toBe(true);
    expect(tree!.has(path.join(storage, 'ws2', 'GitHub.copilot-chat'))).toBe(true);
    expect(tree!.has(path.join(storage, 'ws2', 'GitHub.copilot-chat', 'debug-logs'))).toBe(false); // FolderWatch's
    expect(tree!.size).toBe(5);
  });

  it('a followed logs folder is not reported again when a session folder is created inside it', async () => {
    const followed = new Set<string>();
    const { storage, logs, seen } = setUp(followed);
    followed.add(logs);
    fs.mkdirSync(path.join(logs, 's2')); // the copilot-chat folder's watch sees debug-logs change (its link count)
    await new Promise((r) => setTimeout(r, 200));
    fs.mkdirSync(path.join(storage, 'ws3'));
    await until(() => seen.length, (n) => n >= 1);
    expect(seen).toEqual(['add User/workspaceStorage/ws3']);
  });

  it('a workspace deleted: each watched folder reported once, the watches gone; a folder the tree does not follow is not reported', async () => {
    const { storage, seen } = setUp();
    fs.mkdirSync(path.join(storage, 'ws1', 'ms-python.python', 'sub'));
    fs.rmSync(path.join(storage, 'ws1'), { recursive: true });
    await until(() => seen.length, (n) => n >= 2);
    // give the watchers of the deleted folders time to report anything else they would
    await new Promise((r) => setTimeout(r, 200));
    // rm -r deletes the deepest first: the Copilot folder, then the workspace (the debug-logs folder is not followed here)
    expect(seen.sort()).toEqual(['unlink User/workspaceStorage/ws1', 'unlink User/workspaceStorage/ws1/GitHub.copilot-chat']);
    expect(tree!.size).toBe(1);
  });

  it('a logs folder given as the root: its parent is watched for that folder alone', async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-tree-watch-'));
    const copilot = path.join(root, '.copilot');
    const state = path.join(copilot, 'session-state');
    fs.mkdirSync(path.join(state, 'c1'), { recursive: true });
    const seen: string[] = [];
    const followed = new Set([state]);
    tree = new TreeWatch({
      addDir: (d) => seen.push(`add ${path.relative(root!, d)}`),
      unlinkDir: (d) => seen.push(`unlink ${path.relative(root!, d)}`),
      followed: (d) => followed.has(d),
    });
    tree.addParentOf(state);
    expect([tree.size, tree.has(copilot)]).toEqual([1, true]);
    // the CLI's own folders beside it are not the layout's: neither watched nor reported
    fs.mkdirSync(path.join(copilot, 'logs', 'day'), { recursive: true });
    await new Promise((r) => setTimeout(r, 200));
    expect([seen, tree.size]).toEqual([[], 1]);
    fs.rmSync(state, { recursive: true });
    await until(() => seen.length, (n) => n >= 1);
    followed.clear();
    fs.mkdirSync(state);
    await until(() => seen.length, (n) => n >= 2);
    expect(seen).toEqual(['unlink .copilot/session-state', 'add .copilot/session-state']);
  });
});
