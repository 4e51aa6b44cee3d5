import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../../shared/api';
import type { z } from 'zod';
import { invalidValueText } from './invalid-value';

/** A failure with a status and a message written for the person reading it; rendered as the one error body. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} was not found`);
}

/** app.onError: ApiError keeps its status; anything else is a 500 whose message does not leak internals. */
export function handleError(err: Error, c: Context) {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.details), err.status);
  // Hono's own refusals (a malformed JSON body, a body over the limit) keep their 4xx status.
  if (err instanceof HTTPException && err.status < 500) {
    return c.json(errorBody(err.status === 413 ? 'too_large' : 'bad_request', err.message || 'malformed request'), err.status as ContentfulStatusCode);
  }
  const sqliteBusy = (err as { code?: string }).code === 'SQLITE_BUSY';
  if (sqliteBusy) return c.json(errorBody('busy', 'the database is busy; try again'), 503);
  console.error(err);
  return c.json(errorBody('internal', 'internal error: see the server log'), 500);
}

/** The hook for @hono/zod-validator: a bad parameter is a 400 that names the field and what is wrong with it. */
export function validationHook(result: { success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }, c: Context) {
  if (!result.success && result.error) {
    const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const first = result.error.issues[0];
    let message = 'invalid request';
    if (first) {
      const field = issues[0].path;
      // a query parameter's value as written, for a message that shows it ("\"abc\" is not a number")
      const given = first.path.length === 1 ? c.req.query(field) : undefined;
      message = `invalid ${field || 'request'}: ${invalidValueText(first, given)}`;
    }
    return c.json(errorBody('bad_request', message, issues), 400);
  }
  return undefined;
}
