import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../app-context';
import { errorBody } from './errors';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/**
 * The local-only stance (DESIGN security): a Host that is not ours is refused (DNS rebinding), a
 * state-changing request from a foreign Origin is refused, a configured token is required, and every
 * response carries headers that keep the page inert. No CORS headers are ever sent.
 */
export function securityMiddleware(ctx: AppContext): MiddlewareHandler {
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase().replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
    if (!ctx.allowedHosts.includes(host)) {
      return c.json(errorBody('forbidden_host', `requests for host "${host}" are refused: Chronoscope only answers its own address`), 403);
    }
    const origin = c.req.header('origin');
    if (origin && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      let originHost = '';
      try {
        originHost = new URL(origin).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
      } catch {
        /* unparseable origin: refused below */
      }
      if (!ctx.allowedHosts.includes(originHost)) return c.json(errorBody('forbidden_origin', 'cross-origin requests are refused'), 403);
    }
    if (ctx.token !== null) {
      const auth = c.req.header('authorization');
      const given = auth?.startsWith('Bearer ') ? auth.slice(7) : c.req.query('token');
      if (given !== ctx.token) return c.json(errorBody('unauthorized', 'this server needs its token (Authorization: Bearer …)'), 401);
    }
    await next();
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    c.header('Cross-Origin-Resource-Policy', 'same-origin');
  };
}
