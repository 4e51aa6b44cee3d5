import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_IMPORT_BYTES } from './routes/import';
import type { AppContext } from './app-context';
import { isCorruption } from './db/damaged-index';
import { errorBody, handleError } from './http/errors';
import { queryTurns } from './http/query-turns';
import { responseCache } from './http/response-cache';
import { securityMiddleware } from './http/security';
import { serveUi } from './http/static-ui';
import { fileRoutes } from './routes/files';
import { healthRoutes } from './routes/health';
import { lineageRoutes } from './routes/lineage';
import { searchRoutes } from './routes/search';
import { sessionRoutes } from './routes/sessions';
import { spanRoutes } from './routes/spans';
import { exportRoutes } from './routes/export';
import { importRoutes } from './routes/import';
import { sqlRoutes } from './routes/sql';
import { usageRoutes } from './routes/usage';
import { streamRoutes } from './routes/stream';
import { triageRoutes } from './routes/triage';

export const MAX_BODY_BYTES = 256 * 1024;
const UNQUEUED = /^\/api\/(health|ready|stream|sql|import)$/;
/**
 * Answers that depend on more than the database, the clock and the URL (the server's own status, log files read
 * from disk, a download, a body), or that stream: never shared between requests (response-cache.ts).
 */
const NOT_CACHED = /^\/api\/(health|ready|stream|sql|import|files\/[^/]+|sessions\/[^/]+\/export)$/;
/** what server/read-pool/read-ops.ts runs, when the server has a read worker */
const IN_READ_WORKER = /^\/api\/(search|sessions\/[^/]+\/spans(\/overview|\/seek)?)$/;

function apiRoutes(ctx: AppContext) {
  return new Hono()
    .route('/', healthRoutes(ctx))
    .route('/', sessionRoutes(ctx))
    .route('/', fileRoutes(ctx))
    .route('/', streamRoutes(ctx))
    .route('/', searchRoutes(ctx))
    .route('/', spanRoutes(ctx))
    .route('/', triageRoutes(ctx))
    .route('/', lineageRoutes(ctx))
    .route('/', usageRoutes(ctx))
    .route('/', exportRoutes(ctx))
    .route('/', importRoutes(ctx))
    .route('/', sqlRoutes(ctx));
}

export type ApiType = ReturnType<typeof apiRoutes>;

/** The whole HTTP surface: security first, then /api/*, then the UI. */
export function createApp(ctx: AppContext) {
  const app = new Hono();
  app.use('*', securityMiddleware(ctx));
  const limit = (max: number) => bodyLimit({ maxSize: max, onError: (c) => c.json(errorBody('too_large', `request bodies are limited to ${max.toLocaleString('en-US')} bytes`), 413) });
  const small = limit(MAX_BODY_BYTES);
  const importFile = limit(MAX_IMPORT_BYTES);
  // An imported OTLP file may be as large as VS Code's own import allows; every other body stays small.
  // GET and HEAD bodies are never read, so they need no limit; and bodyLimit's first look at a request's body made
  // @hono/node-server build a whole fetch Request for it (about 0.05 ms each, 200 per burst of queries).
  app.use('/api/*', (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return c.req.path === '/api/import' ? importFile(c, next) : small(c, next);
  });
  // Not in turn: what must answer while queries run (health, readiness, the stream), and what runs elsewhere
  // (search and span trees in the read worker when the server has one, the SQL console in its own process), or
  // waits for its body (an import: up to 50 MB, no database read): a turn held while it waits would stall
  // every other query.
  // Before the turns: a request answered from the cache, or by the same request already running, takes none.
  const cached = responseCache(() => ctx.db);
  app.use('/api/*', (c, next) => (NOT_CACHED.test(c.req.path) ? next() : cached(c, next)));
  const turns = queryTurns();
  app.use('/api/*', (c, next) => (UNQUEUED.test(c.req.path) || (ctx.readPool && IN_READ_WORKER.test(c.req.path)) ? next() : turns(c, next)));
  app.route('/api', apiRoutes(ctx));
  app.all('/api/*', (c) => c.json(errorBody('not_found', `no API route ${c.req.method} ${c.req.path}`), 404));
  if (ctx.webRoot) app.get('*', serveUi(ctx.webRoot));
  app.onError((err, c) => {
    if (!isCorruption(err)) return handleError(err, c);
    ctx.reportCorruption?.(err.message);
    return c.json(errorBody('index_damaged', 'The index is damaged; it is being moved aside and rebuilt from the logs. Try again in a moment.'), 503);
  });
  return app;
}

export type AppType = ReturnType<typeof createApp>;
