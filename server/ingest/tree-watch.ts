import fs from 'node:fs';
import path from 'node:path';
import { isFollowedByTree, isLogsDir, TREE_DEPTH } from './log-folders';

export interface TreeEvents {
  /** A followed folder appeared: a tree folder (watched already when this is called) or a logs folder not followed yet. */
  addDir(dir: string): void;
  /** A watched tree folder, or a followed logs folder, went away. */
  unlinkDir(dir: string): void;
  /** Whether FolderWatch follows this logs folder (debug-logs, session-state, agentHostUsage) already. */
  followed(logsDir: string): boolean;
}

/**
 * The roots' folder tree down to the logs folders (new workspaces, profiles, Copilot and debug-logs folders, and
 * their deletion): one `fs.watch` per tree folder, each set before the folder is listed. A debug-logs,
 * session-state or agentHostUsage folder and what is inside it are FolderWatch's: reported here when they appear
 * or go away, never watched twice.
 *
 * This replaced chokidar's watch of the tree. With the session folders' files ignored, chokidar still watched
 * every session folder (3,712 folders on the 1.6 GiB benchmark corpus, all of them watched by FolderWatch too)
 * and stat'ed every entry of the tree at once when it started: ~45 MB more of the ingest worker's heap survived a
 * collection while it walked (73 MB against 28 MB at the backfill's peak) and ~19 MB stayed after its ready event.
 * Watching a folder before listing it also closes the gap chokidar left (it read a new folder, then watched it: a
 * folder created in between was never reported).
 */
export class TreeWatch {
  private watchers = new Map<string, fs.FSWatcher>();

  constructor(private readonly on: TreeEvents) {}

  get size(): number {
    return this.watchers.size;
  }

  has(dir: string): boolean {
    return this.watchers.has(dir);
  }

  /**
   * Watches `dir` and the tree folders below it, `depth` levels down, each before it is listed. With `report`,
   * every followed folder below `dir` met for the first time is reported as added, parents first (`dir` itself is
   * the caller's); without, the folders are only watched (the start-up walk, whose folders the listing read).
   */
  add(dir: string, report: boolean, depth = TREE_DEPTH): void {
    if (isLogsLevel(dir)) return; // FolderWatch's
    this.logsOnly.delete(dir); // followed whole from now on
    if (!this.watchers.has(dir) && !this.watchOne(dir)) return;
    if (depth === 0) return;
    for (const child of subfolders(dir)) {
      if (!isFollowedByTree(child)) continue;
      if (isLogsDir(child)) {
        if (report && !this.on.followed(child)) this.on.addDir(child);
      } else if (!this.watchers.has(child)) {
        if (report) {
          this.watchOne(child); // before it is reported: the handler lists it
          this.on.addDir(child);
        }
        this.add(child, report, depth - 1);
      } else if (this.logsOnly.has(child)) {
        this.add(child, report, depth - 1); // known, watched for its logs folder alone until now
      }
    }
  }

  /**
   * Watches the folder that holds a logs folder given as a root, for that folder's deletion and creation only: the
   * rest of it (`.copilot` holds the CLI's own logs and settings, for instance) is not part of the layout.
   */
  addParentOf(logsDir: string): void {
    const parent = path.dirname(logsDir);
    if (this.watchers.has(parent) || !this.watchOne(parent)) return;
    this.logsOnly.add(parent);
  }

  /** Folders watched by addParentOf: only their logs folders are looked at. */
  private logsOnly = new Set<string>();

  /** Stops watching the folder and every watched folder below it. */
  unwatch(dir: string): void {
    const prefix = dir + path.sep;
    for (const [d, w] of this.watchers) {
      if (d === dir || d.startsWith(prefix)) {
        w.close();
        this.watchers.delete(d);
        this.logsOnly.delete(d);
      }
    }
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.logsOnly.clear();
  }

  private watchOne(dir: string): boolean {
    let w: fs.FSWatcher;
    try {
      w = fs.watch(dir, { persistent: true }, (_event, name) => {
        if (name) this.onEntry(path.join(dir, name.toString()));
        else if (this.logsOnly.has(dir)) for (const d of subfolders(dir).filter(isLogsDir)) this.onEntry(d);
        else this.add(dir, true); // the platform did not say which entry: look at the whole folder
      });
    } catch {
      return false; // gone or unreadable already: its parent's watcher reports what becomes of it
    }
    // A deleted folder ends its watcher with an error on some platforms; its parent's watcher reports the deletion.
    w.on('error', () => this.unwatch(dir));
    this.watchers.set(dir, w);
    return true;
  }

  /** An entry of a watched tree folder appeared, changed or went away: its children are tree or logs folders. */
  private onEntry(p: string): void {
    const logs = isLogsDir(p);
    if (!isFollowedByTree(p) || (!logs && this.logsOnly.has(path.dirname(p)))) return;
    if (!isDirectory(p)) {
      if (logs ? this.on.followed(p) : this.watchers.has(p)) {
        this.unwatch(p);
        this.on.unlinkDir(p);
      }
      return;
    }
    if (logs) {
      // Also raised when a session folder is created inside it (its link count changed): reported once.
      if (!this.on.followed(p)) this.on.addDir(p);
      return;
    }
    if (this.watchers.has(p)) return;
    this.watchOne(p);
    this.on.addDir(p);
    this.add(p, true, TREE_DEPTH - 1);
  }
}

/** A logs folder, or a folder inside one: FolderWatch's. */
function isLogsLevel(dir: string): boolean {
  return isLogsDir(dir) || isLogsDir(path.dirname(dir));
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}
