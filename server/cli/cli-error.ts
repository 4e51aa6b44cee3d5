import { isDiskFull } from '../ingest/disk-full';
import { IndexOpenError } from '../db/open';
import { ApiError } from '../http/errors';
import { SqlQueryError } from '../sql/sql-error';

/**
 * Exit codes, the same for every command (README, "CLI"): 0 done; 1 nothing found (the command ran and
 * matched nothing); 2 the command could not do what was asked (bad input of any kind, or a disk, port or
 * database that refused), with one line saying what to fix.
 */
export const EXIT_OK = 0;
export const EXIT_NOTHING_FOUND = 1;
export const EXIT_FAILED = 2;

/** A failure a command reports as one line (and, with --json, as the API's error body on stdout). */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A database that could not be written for lack of space, named, with what to do. */
export function diskFullError(dbPath: string, err: unknown): CliError {
  const why = err instanceof Error ? err.message : String(err);
  return new CliError('disk_full', `disk full: ${dbPath} (${why}): free space on that volume (or pass --db FILE on another) and run again; what was indexed before is kept`);
}

/** Any error a command let through, as the CliError the user sees: the known kinds keep their code. */
export function asCliError(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof SqlQueryError) return new CliError(err.code, err.code === 'sql_refused' ? `refused: ${err.message}` : err.message);
  if (err instanceof ApiError) return new CliError(err.code, err.message, err.details);
  if (err instanceof IndexOpenError) return new CliError('db_unwritable', err.message);
  const message = err instanceof Error ? err.message : String(err);
  if (isDiskFull(err)) return new CliError('disk_full', `disk full (${message}): free space and run again; what was indexed before is kept`);
  return new CliError('internal', message);
}
