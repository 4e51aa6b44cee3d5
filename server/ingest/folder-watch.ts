import fs from 'node:fs';
import path from 'node:path';

/**
 * File events of the log folders: one `fs.watch` per debug-logs folder and per session folder, never one per file.
 *
 * chokidar, which this replaced, watched every file it tracked with a watcher of its own and stat'ed them all at
 * once when it started: on the 1.6 GB benchmark corpus (19,131 files in 528 folders) that held 77 MB of heap after
 * its ready event (128 MB at the peak), a heap the ingest worker's limit cannot hold and that grows with every
 * file kept on disk. A folder's watcher already reports a change, creation, deletion or rename of any file directly inside
 * it, with the file's name, which is all the indexer needs: it re-reads the file's state itself. The folders
 * above the log folders (new workspaces, profiles, debug-logs folders) are TreeWatch's (tree-watch.ts).
 */
export class FolderWatch {
  private watchers = new Map<string, fs.FSWatcher>();

  /**
   * @param onFile a file directly inside a watched folder changed, appeared or disappeared (it may not exist)
   * @param onUnknown the platform did not say which file: the whole folder must be looked at
   */
  constructor(
    private onFile: (file: string) => void,
    private onUnknown: (folder: string) => void,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  has(folder: string): boolean {
    return this.watchers.has(folder);
  }

  watch(folder: string): void {
    if (this.watchers.has(folder)) return;
    let w: fs.FSWatcher;
    try {
      w = fs.watch(folder, { persistent: true }, (_event, name) => {
        if (name) this.onFile(path.join(folder, name.toString()));
        else this.onUnknown(folder);
      });
    } catch {
      return; // gone or unreadable already: its parent's watcher reports what becomes of it
    }
    // A deleted folder ends its watcher with an error on some platforms: forget it; its parent's watcher reports it.
    w.on('error', () => this.unwatch(folder));
    this.watchers.set(folder, w);
  }

  /** Stops watching the folder and every watched folder below it. */
  unwatch(folder: string): void {
    const prefix = folder + path.sep;
    for (const [dir, w] of this.watchers) {
      if (dir === folder || dir.startsWith(prefix)) {
        w.close();
        this.watchers.delete(dir);
      }
    }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}
