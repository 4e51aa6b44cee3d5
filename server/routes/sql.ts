import { zValidator } from '@hono/zod-validator';
import { Hono, type MiddlewareHandler } from 'hono';
import { SqlRequest, type SqlSchemaResponse } from '../../shared/api';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { isCorruption } from '../db/damaged-index';
import { ApiError, validationHook } from '../http/errors';
import { describeSchema } from '../sql/describe-schema';
import { SQL_EXAMPLES } from '../sql/examples';
import { MAX_ROWS } from '../sql/run-console-query';
import { SqlQueryError } from '../sql/sql-error';
import { SqlRunner } from '../sql/sql-runner';
import { MAX_SQL_CHARS } from '../sql/statement-text';

/** A body that is not JSON is the client's mistake (400 in the one error body), not Hono's HTTPException (500). */
const rejectMalformedJson: MiddlewareHandler = async (c, next) => {
  if (/^application\/json/i.test(c.req.header('content-type') ?? '')) {
    try {
      await c.req.json(); // cached: the validator reads the same parsed body
    } catch (err) {
      if (err instanceof ApiError || (err as { status?: number }).status === 413) throw err;
      throw new ApiError(400, 'bad_request', 'the request body is not valid JSON');
    }
  }
  await next();
};

/**
 * The SQL console. Queries run in the console's own process (sql-runner.ts), so a slow one never holds up the
 * server; the schema pane reads sqlite_master through the server's read-only connection (a few small reads).
 */
export function sqlRoutes(ctx: AppContext, runner = new SqlRunner({ dbPath: ctx.dbPath })) {
  return new Hono()
    .get('/sql/schema', (c) => {
      const body: SqlSchemaResponse = {
        tables: inOneSnapshot(ctx.db, describeSchema),
        examples: SQL_EXAMPLES,
        limits: { maxRows: MAX_ROWS, timeoutMs: runner.timeoutMs, maxChars: MAX_SQL_CHARS },
      };
      return c.json(body, 200);
    })
    .post('/sql', rejectMalformedJson, zValidator('json', SqlRequest, validationHook), async (c) => {
      try {
        return c.json(await runner.query(c.req.valid('json').sql), 200);
      } catch (err) {
        // The console's own connection found the index damaged: the app's error handler starts the recovery.
        if (err instanceof SqlQueryError && isCorruption(err)) throw err;
        if (err instanceof SqlQueryError) throw new ApiError(err.status, err.code, err.message, err.reason ? { reason: err.reason } : undefined);
        throw err;
      }
    });
}
