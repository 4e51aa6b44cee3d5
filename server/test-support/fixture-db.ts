import type Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';

export interface FixtureDb {
  db: Database.Database;
  /** the temporary user-data folder holding the logs */
  root: string;
  /** absolute path of debug-logs for workspace `ws` (default 'ws1') */
  logsDir(ws?: string): string;
  /** absolute path of the Copilot CLI's session-state folder (`<root>/.copilot/session-state`) */
  sessionStateDir: string;
  dbPath: string;
  /** index again (after changing files) */
  reindex(): Promise<void>;
  cleanup(): void;
}

/** One JSONL line from an object, exactly as Copilot writes it (no spaces). */
export const line = (o: object): string => JSON.stringify(o) + '\n';

/**
 * A fresh database indexed from hand-written log files. `files` maps a path relative to a workspace's
 * debug-logs folder (`<sessionId>/main.jsonl`, `<sessionId>/runSubagent-x-<id>.jsonl`, `<id>.jsonl`) to its
 * content; prefix a key with `wsName:` to put it in another workspace. Each workspace gets a workspace.json
 * pointing at a folder named after it (no git), so its repository is that name.
 */
/**
 * `opts.mtimeMs` gives every file that modification time: the backfill orders files newest first, and files
 * written in the same test land a millisecond apart or not, so ids would otherwise vary from run to run.
 */
export async function fixtureDb(files: Record<string, string>, opts: { cli?: Record<string, string>; mtimeMs?: number; mtimes?: Record<string, number> } = {}): Promise<FixtureDb> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-fx-'));
  // Copilot CLI sessions (opts.cli: `<sessionId>/events.jsonl`, `<sessionId>/workspace.yaml` … → content)
  const copilotHome = path.join(root, '.copilot');
  const sessionStateDir = path.join(copilotHome, 'session-state');
  for (const [rel, content] of Object.entries(opts.cli ?? {})) {
    const file = path.join(sessionStateDir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    if (opts.mtimeMs !== undefined) fs.utimesSync(file, opts.mtimeMs / 1000, opts.mtimeMs / 1000);
  }
  const roots = opts.cli ? [path.join(root, 'Code'), copilotHome] : [path.join(root, 'Code')];
  const logsDir = (ws = 'ws1') => path.join(root, 'Code', 'User', 'workspaceStorage', ws, 'GitHub.copilot-chat', 'debug-logs');
  for (const [key, content] of Object.entries(files)) {
    const [ws, rel] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['ws1', key];
    const folder = path.join(root, 'repos', ws);
    fs.mkdirSync(folder, { recursive: true });
    const storage = path.join(root, 'Code', 'User', 'workspaceStorage', ws);
    fs.mkdirSync(storage, { recursive: true });
    fs.writeFileSync(path.join(storage, 'workspace.json'), JSON.stringify({ folder: `file://${folder}` }, null, 2));
    const file = path.join(logsDir(ws), rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    // a file's own last write (opts.mtimes, by the same key), which orders a backfill (newest sessions first)
    const mtime = opts.mtimes?.[key] ?? opts.mtimeMs;
    if (mtime !== undefined) fs.utimesSync(file, mtime / 1000, mtime / 1000);
  }
  fs.mkdirSync(logsDir(), { recursive: true });
  const dbPath = path.join(root, 'index.db');
  const db = openWriteDb(dbPath);
  ensureSchema(db);
  await indexOnce(db, roots, { searchThread: false });
  return {
    db,
    root,
    logsDir,
    sessionStateDir,
    dbPath,
    reindex: async () => {
      await indexOnce(db, roots, { searchThread: false });
    },
    cleanup: () => {
      db.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
