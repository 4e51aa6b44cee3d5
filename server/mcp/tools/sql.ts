import { z } from 'zod';
import { SQL_MAX_CHARS } from '../../../shared/api';
import { SqlQueryError } from '../../sql/sql-error';
import { defineTool } from '../tool-context';
import { ToolInputError } from '../tool-output';

export const sqlTool = defineTool({
  name: 'sql',
  title: 'Read-only SQL over the index',
  description:
    'One read-only SELECT (or WITH … SELECT) statement against the Chronoscope index, with the SQL console\'s guards: no writes, one statement, at most 100 rows, a 5-second time limit. ' +
    'Chronicle\'s tables work unchanged: sessions(id, cwd, repository, branch, summary, created_at, updated_at, …), turns(session_id, turn_index, user_message, assistant_response, timestamp), ' +
    'session_files(session_id, file_path, tool_name, turn_index), session_refs(session_id, ref_type, ref_value), search_index (FTS5: content MATCH …). ' +
    'The index also has events(id, session_num → sessions.num, type, name, status 0/1, ts, dur, model, tool, ttft, tokens_in, tokens_out, tokens_cached, error, dup 0 = canonical). ' +
    'Always filter and LIMIT; prefer the other tools for search and triage.',
  input: {
    query: z.string().min(1, 'query is required: one SELECT statement').max(SQL_MAX_CHARS, `a statement is at most ${SQL_MAX_CHARS} characters`).describe('one SELECT or WITH statement'),
  },
  async run(ctx, a) {
    try {
      const r = await ctx.sql.query(a.query);
      return {
        listKey: 'rows',
        payload: { columns: r.columns, row_count: r.rows.length, truncated: r.truncated, truncated_by: r.truncatedBy, cells_cut: r.cellsCut, elapsed_ms: r.elapsedMs, rows: r.rows },
      };
    } catch (err) {
      if (err instanceof SqlQueryError) throw new ToolInputError(`${err.message}${err.reason ? ` (${err.reason})` : ''}`);
      throw err;
    }
  },
});
