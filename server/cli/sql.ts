import type { SqlResult, SqlValue } from '../../shared/api';
import type { Options } from '../config';
import { SqlQueryError } from '../sql/sql-error';
import { SqlRunner } from '../sql/sql-runner';
import { checkStatementText } from '../sql/statement-text';
import { terminalSafe, terminalSafeJson } from '../sql/terminal-text';
import { resolveDbPath } from './locations';
import { openIndexForQuery } from './open-index';

const MAX_COLUMN_WIDTH = 60;

function cellText(v: SqlValue): string {
  if (v === null) return 'NULL';
  return terminalSafe(String(v));
}

function fit(s: string, width: number): string {
  const chars = [...s];
  if (chars.length > width) return chars.slice(0, width - 1).join('') + '…';
  return s + ' '.repeat(width - chars.length);
}

/** An aligned text table; wide cells are cut to the column width, and every cell is escaped for the terminal. */
export function formatTable(r: SqlResult): string {
  const header = r.columns.map((c) => terminalSafe(c));
  const body = r.rows.map((row) => row.map(cellText));
  const widths = header.map((h, i) => Math.min(MAX_COLUMN_WIDTH, Math.max([...h].length, ...body.map((row) => [...row[i]].length))));
  const line = (cells: string[]) => cells.map((c, i) => fit(c, widths[i])).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
  const note = r.truncated ? (r.truncatedBy === 'rows' ? ` (more rows exist: the console stops at ${r.rows.length})` : ' (stopped: the result reached its size bound)') : '';
  out.push(`${r.rows.length} row${r.rows.length === 1 ? '' : 's'}${note}, ${r.elapsedMs} ms${r.cellsCut ? `; ${r.cellsCut} long cells cut` : ''}`);
  return out.join('\n') + '\n';
}

/**
 * `chronoscope sql "SELECT …"`: one read-only SELECT or WITH statement against the index, through the same
 * guard and time limit as the dashboard's console (a separate process, killed on timeout).
 */
export async function runSql(opts: Options): Promise<number> {
  const sql = opts.positionals.join(' ').trim();
  if (sql === '') {
    process.stderr.write('usage: chronoscope sql "SELECT …" [--json]\n');
    return 2;
  }
  const checked = checkStatementText(sql);
  if (!checked.ok) {
    process.stderr.write(`chronoscope sql: refused: ${checked.message}\n`);
    return 1;
  }
  (await openIndexForQuery(opts)).close();
  const runner = new SqlRunner({ dbPath: resolveDbPath(opts) });
  // Ctrl-C must not leave the query's process running on its own.
  const interrupt = () => void runner.close().then(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const result = await runner.query(sql);
    process.stdout.write(opts.json ? terminalSafeJson(result) + '\n' : formatTable(result));
    return 0;
  } catch (err) {
    if (!(err instanceof SqlQueryError)) throw err;
    process.stderr.write(`chronoscope sql: ${err.code === 'sql_refused' ? 'refused: ' : ''}${err.message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await runner.close();
  }
}
