import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../app-context';
import { errorBody } from './errors';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // No 'unsafe-inline': React's style props go through CSSOM, which CSP does not govern, and no page inserts
  // <style> elements or style attributes in markup (checked on every view with this policy in e2e/security.spec.ts).
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "worker-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  // Trusted Types: the DOM's HTML sinks (innerHTML, outerHTML, insertAdjacentHTML, document.write) refuse plain
  // strings, and no policy may be created, so log text can never become markup even through a library.
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** Sent on every response, refusals included. */
export const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), payment=()',
};

/**
 * Set by a valid `?token=` so that the UI, its fetches and its EventSource carry the token without code. A
 * browser sends a host's cookies to every port of it, so the name carries the port the browser used (two
 * servers on one host, each with its own token, would otherwise overwrite each other's), and it lapses after
 * TOKEN_COOKIE_MAX_AGE_S: opening the printed URL again renews it.
 */
export function tokenCookieName(hostHeader: string): string {
  return `chronoscope_token_${portOf(hostHeader)}`;
}

export const TOKEN_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/** The port of a `Host` header; 80 when it names none (the browser's default for http:). */
function portOf(hostHeader: string): string {
  return /:(\d{1,5})$/.exec(hostHeader.trim())?.[1] ?? '80';
}

/** Addresses that listen on every interface: the Host a client uses cannot be known in advance. */
const WILDCARD_HOSTS = ['0.0.0.0', '::', '[::]'];

/** `Host` / URL host → bare lowercase hostname: port and IPv6 brackets removed. */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(h);
  if (bracketed) return bracketed[1];
  return h.replace(/:\d+$/, '');
}

function hostAllowed(ctx: AppContext, hostname: string): boolean {
  if (ctx.allowedHosts.includes(hostname)) return true;
  // Bound to every interface (only possible with --token, see config.ts): clients name the machine however
  // their network does, and the token, not the Host, is what keeps a rebinding page out.
  return ctx.token !== null && ctx.allowedHosts.some((h) => WILDCARD_HOSTS.includes(h));
}

/**
 * Same origin means the Origin's host:port is exactly the Host the request was sent to. Comparing hostnames
 * alone would let another local web app (`http://localhost:8080`) post to us; `null` (sandboxed frames, file:)
 * and anything unparseable are foreign.
 */
export function isSameOrigin(origin: string, hostHeader: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  const norm = (h: string) => {
    const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(h.trim().toLowerCase());
    return m ? `${m[1]}:${m[2] ?? defaultPort}` : h;
  };
  return norm(url.host) === norm(hostHeader);
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Constant-time comparison: both sides hashed to 32 bytes first, so neither length nor content leaks by timing. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(digest(expected), digest(given));
}

/** The cookie holds a digest of the token, not the token itself. */
export function tokenCookieValue(token: string): string {
  return createHash('sha256').update(`chronoscope-cookie:${token}`, 'utf8').digest('hex');
}

function refuse(c: Context, status: 401 | 403, code: string, message: string) {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v);
  c.header('Cache-Control', 'no-store');
  return c.json(errorBody(code, message), status);
}

/**
 * The local-only stance (DESIGN security), in this order:
 * 1. a Host that is not a loopback name or the configured host is refused (DNS rebinding);
 * 2. a foreign Origin is refused on any state-changing request and on every /api request, as is a browser's
 *    `Sec-Fetch-Site: cross-site|same-site` on /api (another origin's page reading our data or our SSE stream);
 * 3. with --token, every request carries it (Bearer header, the cookie set from `?token=`, or `?token=` itself
 *    for an EventSource); a top-level page load with `?token=` sets the cookie and redirects to the clean URL;
 * 4. every response, refusals included, carries the security headers; API responses are never cached.
 * No CORS headers are ever sent. The static UI and the SSE stream go through the same checks.
 */
export function securityMiddleware(ctx: AppContext): MiddlewareHandler {
  return async (c, next) => {
    const hostHeader = c.req.header('host') ?? '';
    const hostname = hostnameOf(hostHeader);
    if (!hostAllowed(ctx, hostname)) {
      return refuse(c, 403, 'forbidden_host', `requests for host "${hostname.slice(0, 100)}" are refused: Chronoscope only answers its own address`);
    }
    const isApi = c.req.path === '/api' || c.req.path.startsWith('/api/');
    const safeMethod = c.req.method === 'GET' || c.req.method === 'HEAD';
    const origin = c.req.header('origin');
    if (origin !== undefined && (!safeMethod || isApi) && !isSameOrigin(origin, hostHeader)) {
      return refuse(c, 403, 'forbidden_origin', 'cross-origin requests are refused');
    }
    const fetchSite = c.req.header('sec-fetch-site');
    if (isApi && (fetchSite === 'cross-site' || fetchSite === 'same-site')) {
      return refuse(c, 403, 'forbidden_origin', 'cross-origin requests are refused');
    }
    if (ctx.token !== null) {
      const auth = c.req.header('authorization');
      const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
      const queryToken = c.req.query('token');
      const cookieName = tokenCookieName(hostHeader);
      const cookie = getCookie(c, cookieName);
      const ok =
        tokenMatches(ctx.token, bearer) ||
        tokenMatches(ctx.token, queryToken) ||
        (cookie !== undefined && tokenMatches(tokenCookieValue(ctx.token), cookie));
      if (!ok) return refuse(c, 401, 'unauthorized', 'this server needs its token: open the URL it printed with ?token=…, or send Authorization: Bearer …');
      if (queryToken !== undefined && tokenMatches(ctx.token, queryToken) && safeMethod && !isApi) {
        // Keep the token out of the address bar, history and bookmarks: the cookie carries it from now on.
        const url = new URL(c.req.url);
        url.searchParams.delete('token');
        for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.header(k, v);
        c.header('Set-Cookie', `${cookieName}=${tokenCookieValue(ctx.token)}; Max-Age=${TOKEN_COOKIE_MAX_AGE_S}; Path=/; HttpOnly; SameSite=Strict`);
        c.header('Cache-Control', 'no-store');
        return c.redirect(url.pathname + url.search, 303);
      }
    }
    await next();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(k, v);
    if (isApi && !c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store');
    for (const h of ['Access-Control-Allow-Origin', 'Access-Control-Allow-Credentials', 'Access-Control-Allow-Headers', 'Access-Control-Allow-Methods']) {
      c.res.headers.delete(h);
    }
  };
}
