import type Database from 'better-sqlite3';
import { KeptWhileUnchanged } from '../db/db-state';
import { statement } from '../db/statements';

export interface SessionInfo {
  num: number;
  id: string;
  parentId: string | null;
  isChild: boolean;
  repository: string | null;
  branch: string | null;
  title: string | null;
  label: string | null;
  lastTs: number | null;
  source: string;
}

const COLUMNS = `num, id, parent_id AS parentId, is_child AS isChild, repository, branch, title, label, last_ts AS lastTs, source`;

/** Nesting deeper than this (subagents of subagents of …) is cut: the deepest ancestor found stands as the root. */
export const MAX_DEPTH = 8;

/**
 * The sessions one search touches, loaded in batches, with each child session (subagent, title, summarize…)
 * rolled up to its top-level session: a hit in a subagent is part of the conversation that started it, which is
 * what a person looks for. Forks are not children and stay sessions of their own.
 */
export class SessionDirectory {
  private byNum = new Map<number, SessionInfo>();
  private byId = new Map<string, SessionInfo>();
  private roots = new Map<number, SessionInfo>();

  constructor(private db: Database.Database) {}

  private add(rows: (Omit<SessionInfo, 'isChild'> & { isChild: number })[]): void {
    for (const r of rows) {
      const s: SessionInfo = { ...r, isChild: r.isChild === 1 };
      this.byNum.set(s.num, s);
      this.byId.set(s.id, s);
    }
  }

  loadNums(nums: Iterable<number>): void {
    const missing = [...new Set(nums)].filter((n) => !this.byNum.has(n));
    if (missing.length > 0) {
      this.add(statement(this.db, `SELECT ${COLUMNS} FROM sessions WHERE num IN (SELECT value FROM json_each(?))`).all(JSON.stringify(missing)) as never);
    }
    this.loadParents();
  }

  loadIds(ids: Iterable<string>): void {
    const missing = [...new Set(ids)].filter((id) => !this.byId.has(id));
    if (missing.length > 0) {
      this.add(statement(this.db, `SELECT ${COLUMNS} FROM sessions WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(missing)) as never);
    }
    this.loadParents();
  }

  /** Loads the ancestors of every child loaded so far, one level per query. */
  private loadParents(): void {
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      const want = new Set<string>();
      for (const s of this.byNum.values()) if (s.isChild && s.parentId && !this.byId.has(s.parentId)) want.add(s.parentId);
      if (want.size === 0) return;
      const before = this.byId.size;
      this.add(statement(this.db, `SELECT ${COLUMNS} FROM sessions WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify([...want])) as never);
      if (this.byId.size === before) return; // parents not indexed (yet): the children stand alone
    }
  }

  /** sessions held (ancestors included) */
  get size(): number {
    return this.byNum.size;
  }

  get(num: number): SessionInfo | undefined {
    return this.byNum.get(num);
  }

  getById(id: string): SessionInfo | undefined {
    return this.byId.get(id);
  }

  /** The top-level session a session belongs to (itself when it is not a child, or its parent is unknown). */
  rootOf(num: number): SessionInfo | undefined {
    const cached = this.roots.get(num);
    if (cached) return cached;
    let s = this.byNum.get(num);
    if (!s) return undefined;
    const seen = new Set<string>([s.id]);
    while (s.isChild && s.parentId) {
      const p = this.byId.get(s.parentId);
      if (!p || seen.has(p.id) || seen.size > MAX_DEPTH) break;
      seen.add(p.id);
      s = p;
    }
    this.roots.set(num, s);
    return s;
  }
}

const directories = new KeptWhileUnchanged((db) => new SessionDirectory(db));

/**
 * Past this many sessions the next search starts a new directory: on an idle server nothing is committed, and
 * searches over the whole index (depth=all, later pages) would otherwise keep every session of it, a number that
 * grows with the corpus (17,524 at 1.6 GB). One search may load more; the bound applies between searches.
 */
export const MAX_DIRECTORY_SESSIONS = 5_000;

/**
 * The connection's directory, kept from one search to the next while nothing is committed: searches typed one
 * after another touch mostly the same sessions, and loading them cost a fifth of a common identifier's search.
 * A commit by the indexer, or more than `maxSessions` held, starts a new one.
 */
export function sessionDirectory(db: Database.Database, maxSessions = MAX_DIRECTORY_SESSIONS): SessionDirectory {
  return directories.get(db, (dir) => dir.size > maxSessions);
}
