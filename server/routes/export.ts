import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { ExportQuery } from '../../shared/api';
import type { AppContext } from '../app-context';
import { notFound, validationHook } from '../http/errors';
import { readOffTheLoop } from '../read-pool/read-ops';

/** GET /api/sessions/:id/export?format=otlp|md: a download (OTLP JSON) or text (Markdown, for the clipboard). */
export function exportRoutes(ctx: AppContext) {
  return new Hono().get('/sessions/:id/export', zValidator('query', ExportQuery, validationHook), async (c) => {
    const id = c.req.param('id');
    const q = c.req.valid('query');
    const safe = id.replace(/[^\w.-]/g, '_');
    if (q.format === 'md') {
      // off the event loop, where the session page's span tree is already built (the largest family's: ~1.5 s to build)
      const bytes = await readOffTheLoop(ctx, 'markdown', { sessionId: id, maxChars: q.maxChars, eventId: q.event });
      const md = (JSON.parse(Buffer.from(bytes).toString('utf8')) as { text: string | null }).text;
      if (md === null) throw notFound(q.event === undefined ? `session ${id}` : `event ${q.event} in session ${id}`);
      c.header('Content-Type', 'text/markdown; charset=utf-8');
      if (q.download === '1') c.header('Content-Disposition', `attachment; filename="${safe}.md"`);
      return c.body(md, 200);
    }
    const json = await readOffTheLoop(ctx, 'otlp', { sessionId: id });
    c.header('Content-Type', 'application/json; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${safe}.otlp.json"`);
    return c.body(json, 200);
  });
}
