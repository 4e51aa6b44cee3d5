import { Hono } from 'hono';
import type { AppContext } from '../app-context';
import { inOneSnapshot } from '../db/one-snapshot';
import { ApiError, notFound } from '../http/errors';

/**
 * Companion files (models, system prompts, tools) by their index id only: no path from the request ever
 * reaches the filesystem, and the content comes from the database, so it outlives Copilot's retention.
 */
export function fileRoutes(ctx: AppContext) {
  return new Hono().get('/files/:id', (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(400, 'bad_request', 'a companion file id is a positive integer');
    const row = inOneSnapshot(ctx.db, (db) => db.prepare('SELECT name, kind, content FROM companions WHERE id = ?').get(id)) as { name: string; kind: string; content: string | null } | undefined;
    if (!row) throw notFound(`companion file ${id}`);
    const isJson = row.kind === 'models' || row.kind === 'tools';
    c.header('Content-Type', isJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
    c.header('Content-Disposition', `inline; filename="${row.name.replace(/[^\w.-]/g, '_')}"`);
    return c.body(row.content ?? '', 200);
  });
}
