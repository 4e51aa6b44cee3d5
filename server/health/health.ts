import type Database from 'better-sqlite3';
import type { Health, Problem } from '../../shared/api';
import type { AppContext } from '../app-context';
import { indexTotals, type IndexTotals } from '../counts/index-totals';
import { recordedRecovery } from '../db/damaged-index';
import { KeptWhileUnchanged } from '../db/db-state';
import { SCHEMA_VERSION } from '../db/schema';
import { statement } from '../db/statements';
import { attachSearch } from '../search-index/search-db';
import { searchLag } from '../search-index/search-lag';

const PROBLEMS_SHOWN = 100;

/**
 * Bad lines through their partial index: `ORDER BY l.id` alone made SQLite walk every line of the archive
 * backwards looking for the few bad ones (170–330 ms on a 512 MB corpus, on every /api/health, on the event
 * loop); the index holds only bad lines, sorted here by id.
 */
export const RECENT_BAD_LINES = `SELECT l.file_id fileId, f.path, l.line_no lineNo, l.byte_offset byteOffset, l.kind, l.reason, f.updated_at at
  FROM lines l INDEXED BY lines_problems JOIN files f ON f.id = l.file_id WHERE l.kind > 0 ORDER BY l.id DESC LIMIT ?`;

/** The newest problems the archive recorded: bad lines and fragments with file, line and reason; unreadable files. */
export function recentProblems(db: Database.Database, limit = PROBLEMS_SHOWN): Problem[] {
  const lines = statement(db, RECENT_BAD_LINES)
    .all(limit) as { fileId: number; path: string; lineNo: number; byteOffset: number; kind: number; reason: string | null; at: number }[];
  const files = db
    .prepare('SELECT id fileId, path, error reason, updated_at at FROM files WHERE error IS NOT NULL ORDER BY updated_at DESC LIMIT ?')
    .all(limit) as { fileId: number; path: string; reason: string; at: number }[];
  return [
    ...files.map((f) => ({ fileId: f.fileId, path: f.path, lineNo: null, byteOffset: null, kind: 'unreadable' as const, reason: f.reason, at: f.at ?? 0 })),
    ...lines.map((l) => ({
      fileId: l.fileId,
      path: l.path,
      lineNo: l.lineNo,
      byteOffset: l.byteOffset,
      kind: l.kind === 2 ? ('fragment' as const) : ('bad_line' as const),
      reason: l.reason ?? 'unknown',
      at: l.at ?? 0,
    })),
  ].slice(0, limit);
}

function recoveryProblems(db: Database.Database): Problem[] {
  const p = recordedRecovery(db);
  return p ? [p] : [];
}

interface StoredFacts {
  workspaces: number;
  totals: IndexTotals;
  problems: Problem[];
}

/**
 * What health reads from the database, read again only after a commit (dbState): the totals cost 2–4 ms a call
 * on the 256 MB corpus, and health is what must answer at once while 200 other requests wait.
 */
const factsByConnection = new KeptWhileUnchanged(
  (db): StoredFacts => ({
    // The no-workspace roots have a row too (kind 'none'), but they are not workspaces.
    workspaces: (statement(db, "SELECT count(*) n FROM workspaces WHERE coalesce(kind, '') != 'none'").get() as { n: number }).n,
    totals: indexTotals(db),
    problems: [...recoveryProblems(db), ...recentProblems(db)],
  }),
);

function storedFacts(db: Database.Database): StoredFacts {
  return factsByConnection.get(db);
}

/** How far the search file lags the archive: counted from its mark, which the reader sees in the attached file. */
export function searchProgress(ctx: AppContext): Health['search'] {
  attachSearch(ctx.db, ctx.dbPath); // follows a search file created again since
  return searchLag(ctx.db);
}

export function getHealth(ctx: AppContext): Health {
  const { workspaces, totals, problems } = storedFacts(ctx.db);
  const p = ctx.status.progress;
  return {
    ok: true,
    version: ctx.version,
    schemaVersion: SCHEMA_VERSION,
    demo: ctx.demo,
    dbPath: ctx.dbPath,
    roots: ctx.status.roots,
    workspaces,
    ...totals,
    indexLagMs: p.state === 'idle' ? 0 : Math.max(0, Date.now() - ctx.status.lastIndexedAt),
    backfill: p,
    search: searchProgress(ctx),
    problems: [
      ...(ctx.status.writesPaused ? [ctx.status.writesPaused] : []),
      ...(ctx.status.searchProblem ? [ctx.status.searchProblem] : []),
      ...ctx.status.problems,
      ...problems,
    ],
    forwarding: ctx.status.forwarding ?? null,
  };
}
