import Database from 'better-sqlite3';
import { attachSearch } from '../search-index/search-db';
import type { SqlResult, SqlValue } from '../../shared/api';
import { SqlQueryError } from './sql-error';
import { withSchemaHint } from './schema-hint';
import { checkStatementText } from './statement-text';

export const MAX_ROWS = 1000;
/** One cell's text beyond this is cut (with a marker): a 10 MB prompt must not make a 10 MB table cell. */
export const MAX_CELL_CHARS = 20_000;
/** The whole result's text beyond this stops the read, like the row cap: bounded memory and response size. */
export const MAX_RESULT_CHARS = 4_000_000;

export interface ConsoleLimits {
  maxRows: number;
  maxCellChars: number;
  maxResultChars: number;
}

export const DEFAULT_LIMITS: ConsoleLimits = { maxRows: MAX_ROWS, maxCellChars: MAX_CELL_CHARS, maxResultChars: MAX_RESULT_CHARS };

/**
 * The console's own connection: opened read-only by the engine, and `query_only` on top, so that even the
 * temp schema cannot be written; `trusted_schema` off so that no view or trigger can call a function with side
 * effects; temporary storage in memory (see below). better-sqlite3 keeps SQLITE_DBCONFIG_DEFENSIVE on (no writable_schema tricks) and leaves the SQL
 * function load_extension() disabled.
 */
export function openConsoleDb(dbPath: string): Database.Database {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  attachSearch(db, dbPath); // event_text and event_cjk, as in every reader (server/search-index/search-db.ts)
  db.pragma('query_only = ON');
  db.pragma('trusted_schema = OFF');
  db.pragma('busy_timeout = 2000');
  db.pragma('cache_size = -16000');
  // Sorts and temporary b-trees in memory, where the console's watchdog caps them (console-watchdog.ts), not in
  // temp files that nothing bounds.
  db.pragma('temp_store = MEMORY');
  return db;
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return { text: `${text.slice(0, max)}… [${text.length - max} more characters]`, cut: true };
}

/** JSON-safe cells: integers beyond 2^53 as strings (exact), blobs as a short hex preview with their size. */
function toCell(v: unknown, maxChars: number): { value: SqlValue; cut: boolean } {
  if (v === null || v === undefined) return { value: null, cut: false };
  if (typeof v === 'bigint') {
    const safe = v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER);
    return { value: safe ? Number(v) : v.toString(), cut: false };
  }
  if (typeof v === 'number') return { value: Number.isFinite(v) ? v : String(v), cut: false };
  if (Buffer.isBuffer(v)) {
    const preview = v.subarray(0, 32).toString('hex');
    return { value: `x'${preview}'${v.length > 32 ? '…' : ''} (blob, ${v.length} bytes)`, cut: v.length > 32 };
  }
  const c = cut(String(v), maxChars);
  return { value: c.text, cut: c.cut };
}

/**
 * Runs one console statement with every layer of the guard:
 * 1. the text (statement-text.ts): one SELECT/WITH, no ATTACH/PRAGMA/VACUUM/load_extension, no NUL or bidi tricks;
 * 2. the engine's verdict on the prepared statement: `prepare` refuses a second statement, `stmt.reader` says it
 *    returns rows (not ATTACH, VACUUM INTO, PRAGMA x=y, CREATE TEMP…), `stmt.readonly` that it writes nothing
 *    (not INSERT … RETURNING);
 * 3. the connection (openConsoleDb): read-only and query_only, whatever got this far.
 * Rows stop at maxRows, or when the text read reaches maxResultChars (`truncated`); long cells are cut.
 * The time limit is the caller's (sql-runner.ts runs this in a process it can kill).
 */
export function runConsoleQuery(db: Database.Database, input: string, limits: ConsoleLimits = DEFAULT_LIMITS): SqlResult {
  const checked = checkStatementText(input);
  if (!checked.ok) throw new SqlQueryError('sql_refused', checked.message, checked.reason);
  return runWithEngineChecks(db, checked.sql, limits);
}

/** Layers 2 and 3 alone (exported so that tests can prove the engine refuses what the text layer would catch). */
export function runWithEngineChecks(db: Database.Database, sql: string, limits: ConsoleLimits = DEFAULT_LIMITS): SqlResult {
  const started = performance.now();
  let stmt: Database.Statement;
  try {
    stmt = db.prepare(sql);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/more than one statement/.test(message)) throw new SqlQueryError('sql_refused', 'only one statement per query', 'multiple_statements');
    throw new SqlQueryError('sql_error', withSchemaHint(db, message));
  }
  if (!stmt.reader) throw new SqlQueryError('sql_refused', 'this statement returns no rows: the console runs SELECT queries only', 'engine_not_reader');
  if (!stmt.readonly) throw new SqlQueryError('sql_refused', 'SQLite reports that this statement would write: the console only reads', 'engine_not_readonly');
  stmt.raw(true);
  stmt.safeIntegers(true);
  const columns = stmt.columns().map((c) => c.name);
  const rows: SqlValue[][] = [];
  let chars = 0;
  let truncated: false | 'rows' | 'size' = false;
  let cellsCut = 0;
  const it = stmt.iterate() as IterableIterator<unknown[]>;
  try {
    for (const raw of it) {
      // Only a row beyond a limit marks the result truncated: exactly maxRows rows is a complete answer.
      if (rows.length >= limits.maxRows || chars >= limits.maxResultChars) {
        truncated = rows.length >= limits.maxRows ? 'rows' : 'size';
        break;
      }
      const row: SqlValue[] = [];
      for (const v of raw) {
        const c = toCell(v, limits.maxCellChars);
        if (c.cut) cellsCut++;
        chars += typeof c.value === 'string' ? c.value.length : 8;
        row.push(c.value);
      }
      rows.push(row);
    }
  } catch (err) {
    throw new SqlQueryError('sql_error', err instanceof Error ? err.message : String(err));
  } finally {
    it.return?.();
  }
  return {
    columns,
    rows,
    truncated: truncated !== false,
    truncatedBy: truncated === false ? null : truncated,
    cellsCut,
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}
