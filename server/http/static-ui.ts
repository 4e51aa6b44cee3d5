import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** Serves the built UI; any other path outside /assets/ gets index.html so that deep links (/session/:id) load the app. */
export function serveUi(webRoot: string) {
  const root = path.resolve(webRoot);
  return (c: Context) => {
    let rel: string;
    try {
      rel = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      rel = '/'; // a malformed %-escape names no file: serve the app, which shows its not-found page
    }
    const candidate = path.resolve(root, '.' + rel);
    const inside = candidate.startsWith(root + path.sep);
    let file = path.join(root, 'index.html');
    if (inside && fs.existsSync(candidate) && fs.statSync(candidate).isFile()) file = candidate;
    else if (rel.startsWith('/assets/')) {
      // A chunk of an older build (a tab opened before a rebuild): index.html in its place fails as "not a module";
      // a 404 lets the page reload itself into the new build (web/src/app/lazy-page.tsx).
      c.header('Cache-Control', 'no-cache');
      return c.text(`${rel} is not part of this build of the UI: reload the page.`, 404);
    }
    if (!fs.existsSync(file)) return c.text('The UI is not built: run `npm run build`.', 503);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    c.header('Content-Type', type);
    c.header('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(fs.readFileSync(file), 200);
  };
}
