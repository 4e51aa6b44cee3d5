import type Database from 'better-sqlite3';
import { CliError } from './cli-error';

/**
 * The session a command names: its whole id, or a prefix of it that names one session (as git takes a commit's):
 * the lists show ids by their first 8 characters. A prefix of several sessions, or of none, is a CliError that
 * says which.
 */
export function resolveSessionId(db: Database.Database, wanted: string): string {
  if (db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(wanted)) return wanted;
  // ids from the prefix up to the prefix followed by the last code point: a range read of the primary key
  const like = db.prepare('SELECT id FROM sessions WHERE id >= ? AND id < ? || char(1114111) ORDER BY id LIMIT 3').pluck().all(wanted, wanted) as string[];
  if (like.length === 1) return like[0];
  if (like.length === 0) throw noSuchSession(wanted);
  throw new CliError('ambiguous_id', `${wanted} names more than one session (${like.slice(0, 2).join(', ')}…): give more of the id`);
}

/** The error of a session id the index does not hold (resolveSessionId, and a session gone between two reads). */
export function noSuchSession(id: string): CliError {
  return new CliError('not_found', `no session ${id} in the index: check the id (\`chronoscope search\` finds sessions)`);
}
