import type { SqlResult, SqlValue } from '../../shared/api';
import type { Options } from '../config';
import { SqlQueryError } from '../sql/sql-error';
import { SqlRunner } from '../sql/sql-runner';
import { checkStatementText } from '../sql/statement-text';
import { terminalSafe, terminalSafeJson } from '../sql/terminal-text';
import { resolveDbPath } from './locations';
import { CliError, EXIT_NOTHING_FOUND, EXIT_OK } from './cli-error';
import { openIndexForQuery } from './open-index';
import { textTable } from './text-table';

const MAX_COLUMN_WIDTH = 60;

function cellText(v: SqlValue): string {
  if (v === null) return 'NULL';
  return terminalSafe(String(v));
}

/** An aligned text table; wide cells are cut to the column width, and every cell is escaped for the terminal. */
export function formatTable(r: SqlResult): string {
  const out = textTable(
    r.columns.map((c) => terminalSafe(c)),
    r.rows.map((row) => row.map(cellText)),
    { maxWidth: MAX_COLUMN_WIDTH, rule: true },
  );
  const note = r.truncated ? (r.truncatedBy === 'rows' ? ` (more rows exist: the console stops at ${r.rows.length})` : ' (stopped: the result reached its size bound)') : '';
  out.push(`${r.rows.length} row${r.rows.length === 1 ? '' : 's'}${note}, ${r.elapsedMs} ms${r.cellsCut ? `; ${r.cellsCut} long cells cut` : ''}`);
  return out.join('\n') + '\n';
}

/**
 * `chronoscope sql "SELECT …"`: one read-only SELECT or WITH statement against the index, through the same
 * guard and time limit as the dashboard's console (a separate process, killed on timeout). Exit 1 when it
 * returns no row; a refusal or an SQL error (no such table, syntax, FTS5) is exit 2 with SQLite's message.
 */
export async function runSql(opts: Options): Promise<number> {
  const sql = opts.positionals.join(' ').trim();
  if (sql === '') throw new CliError('bad_request', 'which statement? usage: chronoscope sql "SELECT …" [--json]');
  // Refused before the index is brought up to date: nothing to wait for.
  const checked = checkStatementText(sql);
  if (!checked.ok) throw new SqlQueryError('sql_refused', checked.message, checked.reason);
  (await openIndexForQuery(opts)).close();
  const runner = new SqlRunner({ dbPath: resolveDbPath(opts) });
  // Ctrl-C must not leave the query's process running on its own.
  const interrupt = () => void runner.close().then(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    // A refusal or an SQL error rejects with a SqlQueryError: run-cli reports it with its code, exit 2.
    const result = await runner.query(sql);
    process.stdout.write(opts.json ? terminalSafeJson(result) + '\n' : formatTable(result));
    return result.rows.length > 0 ? EXIT_OK : EXIT_NOTHING_FOUND;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await runner.close();
  }
}
