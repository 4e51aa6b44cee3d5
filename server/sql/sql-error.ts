import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type SqlErrorCode = 'sql_refused' | 'sql_error' | 'sql_timeout' | 'busy' | 'sql_crashed' | 'sql_too_big';

const STATUS: Record<SqlErrorCode, ContentfulStatusCode> = {
  sql_refused: 400,
  sql_error: 400,
  sql_timeout: 400,
  busy: 503,
  sql_crashed: 500,
  sql_too_big: 400,
};

/** A console query that did not produce rows: refused by a guard layer, failed in SQLite, timed out, passed the memory cap, or queued out. */
export class SqlQueryError extends Error {
  constructor(
    readonly code: SqlErrorCode,
    message: string,
    /** which guard refused it (statement-text reasons, engine_not_reader, engine_not_readonly) */
    readonly reason?: string,
  ) {
    super(message);
  }

  get status(): ContentfulStatusCode {
    return STATUS[this.code];
  }
}
