import Database from 'better-sqlite3';
import fs from 'node:fs';
import type { Problem } from '../../shared/api';
import { visibleText } from '../../shared/visible-text';
import { getMeta, setMeta } from './schema';

const CORRUPTION = /malformed|file is not a database|not a database|disk image|database corrupt/i;

/** SQLite saying the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB or their messages), on any connection. */
export function isCorruption(err: unknown): boolean {
  return err instanceof Error && (CORRUPTION.test(err.message) || /SQLITE_(CORRUPT|NOTADB)/.test(String((err as { code?: string }).code)));
}

/**
 * `PRAGMA quick_check`: every b-tree page read and checked, without the index-against-table cross-check of
 * integrity_check. null when the file is sound, else SQLite's first findings.
 */
export function quickCheck(db: Database.Database): string | null {
  const rows = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
  const found = rows.map((r) => r.quick_check).filter((m) => m !== 'ok');
  return found.length === 0 ? null : found.join('; ');
}

/** The name a damaged index is kept under: beside it, with the time it was found (sortable, no colons). */
export function asidePath(file: string, at = new Date()): string {
  return `${file}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Moves a damaged index aside, with its write-ahead log (it may hold the newest commits, and the evidence). Never
 * deletes it. Open connections keep reading the moved file; the next open at `file` creates a new index.
 */
export function moveAside(file: string): string {
  const aside = asidePath(file);
  fs.renameSync(file, aside);
  for (const ext of ['-wal', '-shm']) {
    try {
      fs.renameSync(file + ext, aside + ext);
    } catch {
      /* no such file: nothing to keep */
    }
  }
  return aside;
}

export interface LostSessions {
  /** sessions whose every log file is gone from disk, as far as the damaged file could be read */
  sessions: { id: string; title: string | null }[];
  /** the damage cut the list short (or the archive could not be read at all: then sessions is empty) */
  incomplete: boolean;
}

/**
 * What a rebuild from the logs cannot bring back: sessions the archive kept after Copilot deleted their logs.
 * Read from the damaged file row by row, so that a damaged page ends the list instead of losing all of it.
 */
export function lostSessions(damagedFile: string): LostSessions {
  const byId = new Map<string, boolean>(); // session id → some file of it still on disk
  let incomplete = false;
  let db: Database.Database | null = null;
  try {
    db = new Database(damagedFile, { readonly: true, fileMustExist: true });
    for (const f of db.prepare('SELECT session_id, path FROM files').iterate() as Iterable<{ session_id: string; path: string }>) {
      byId.set(f.session_id, (byId.get(f.session_id) ?? false) || fs.existsSync(f.path));
    }
  } catch {
    incomplete = true;
  }
  const sessions = [...byId].filter(([, onDisk]) => !onDisk).map(([id]) => ({ id, title: null as string | null }));
  if (db) {
    try {
      const title = db.prepare('SELECT coalesce(title, label) t FROM sessions WHERE id = ?').pluck();
      for (const s of sessions) {
        try {
          s.title = (title.get(s.id) as string | null | undefined) ?? null;
        } catch {
          /* that page is damaged: the id alone */
        }
      }
    } catch {
      /* no readable sessions table: ids only */
    }
    db.close();
  }
  return { sessions, incomplete };
}

const LISTED = 20;
const TITLE_CHARS = 80;

/** A title is log text: control and bidi characters made visible, and cut, since the message lists up to 20. */
function shownTitle(title: string): string {
  const t = visibleText(title.replace(/\s+/g, ' ').trim());
  return t.length > TITLE_CHARS ? `${t.slice(0, TITLE_CHARS - 1)}…` : t;
}

/** The words the health page and the log show after a recovery. */
export function recoveryMessage(file: string, aside: string, cause: string, lost: LostSessions): string {
  const head = `The index at ${file} was damaged (${cause}). It was moved to ${aside} and rebuilt from the logs.`;
  const n = lost.sessions.length;
  const named = lost.sessions
    .slice(0, LISTED)
    .map((s) => (s.title ? `${visibleText(s.id)} (${shownTitle(s.title)})` : visibleText(s.id)))
    .join(', ');
  const more = n > LISTED ? ` and ${n - LISTED} more` : '';
  if (n === 0 && !lost.incomplete) return `${head} Every session's logs are still on disk: nothing was lost.`;
  if (n === 0) return `${head} The damaged file could not be read to list the sessions whose logs are gone: any such session is lost.`;
  const cut = lost.incomplete ? ' (the damage cut this list short: there may be more)' : '';
  return `${head} ${n} session${n === 1 ? '' : 's'} whose logs are gone could not be recovered${cut}: ${named}${more}.`;
}

const META_KEY = 'recovered_from_damage';

/** Kept in the new index, so that the health page still says so after a restart. */
export function recordRecovery(db: Database.Database, problem: Problem): void {
  setMeta(db, META_KEY, JSON.stringify(problem));
}

export function recordedRecovery(db: Database.Database): Problem | null {
  try {
    const v = getMeta(db, META_KEY);
    return v ? (JSON.parse(v) as Problem) : null;
  } catch {
    return null;
  }
}
