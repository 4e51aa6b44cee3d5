import type Database from 'better-sqlite3';
import type { MiddlewareHandler } from 'hono';
import { dbState } from '../db/db-state';
import { encodedBody } from './json-bytes';
import { onePerTurn } from './one-per-turn';

/**
 * How long a cached answer may be reused at most, even while nothing was committed: answers also depend on the
 * clock (a '24h' window, search's recency ranking), and a second moves them by nothing a reader could see.
 */
export const MAX_AGE_MS = 1000;
/** Bytes of response bodies kept at most. */
export const MAX_CACHED_BYTES = 32 * 2 ** 20;
/** A body above this share of the budget is answered but not kept: it would push out everything else. */
const MAX_ENTRY_SHARE = 8;

interface Limits {
  maxAgeMs: number;
  maxBytes: number;
}

interface Answer {
  status: number;
  headers: [string, string][];
  /**
   * encoded once: a reused answer is written as it is, not encoded again per request. A Uint8Array, not an
   * ArrayBuffer: @hono/node-server writes a Response of a Uint8Array body and plain headers straight to the socket,
   * while any other body made it build a whole fetch Response with a ReadableStream per reused answer (0.1 ms each,
   * 200 per burst, on the event loop that answers health).
   */
  body: Uint8Array<ArrayBuffer>;
}

interface Entry extends Answer {
  state: string;
  at: number;
}

/** Bytes of bodies kept by every cache of this process (the memory log's count). */
let processBytes = 0;
export const responseCacheBytes = (): number => processBytes;

/** The answers of one connection (a rebuilt index is a new connection, with nothing cached for it). */
class AnswerCache {
  constructor(private readonly limits: Limits) {}
  /** insertion order is use order: the first key is the least recently used */
  private readonly entries = new Map<string, Entry>();
  private _bytes = 0;
  private get bytes(): number {
    return this._bytes;
  }
  private set bytes(n: number) {
    processBytes += n - this._bytes;
    this._bytes = n;
  }
  /** requests being answered now, by key and database state: the same request arriving meanwhile waits for it */
  readonly inFlight = new Map<string, Promise<Answer>>();

  get(key: string, state: string, now: number): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.state !== state || now - e.at > this.limits.maxAgeMs) {
      this.bytes -= e.body.byteLength;
      return undefined;
    }
    this.entries.set(key, e);
    return e;
  }

  set(key: string, e: Entry): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.byteLength;
    }
    if (e.body.byteLength > this.limits.maxBytes / MAX_ENTRY_SHARE) return;
    this.entries.set(key, e);
    this.bytes += e.body.byteLength;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.limits.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.body.byteLength;
    }
  }
}

/**
 * Whether a request asks for an answer computed now (RFC 9111 §5.2.1: `no-cache` or `max-age=0`; HTTP/1.0's
 * `Pragma: no-cache`): a browser's hard reload, and the bench, whose query rows time the query, not a reused answer.
 * It is computed again (not joined to one in flight either) and kept for the requests that allow reuse.
 */
function asksForFresh(cacheControl: string | undefined, pragma: string | undefined): boolean {
  if (pragma !== undefined && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test(pragma)) return true;
  if (cacheControl === undefined) return false;
  return /(?:^|,)\s*(?:no-cache|max-age\s*=\s*0+)\s*(?:,|$)/i.test(cacheControl);
}

// The header goes in with the others: reading `res.headers` back would build the fetch Response the line above avoids.
const toResponse = (a: Answer, hit: string) => new Response(a.body, { status: a.status, headers: [...a.headers, ['X-Chronoscope-Cache', hit]] });

/**
 * GET answers computed from the database, computed once per database state. The same request while it is being
 * answered waits for that answer instead of running again (a burst of identical requests, a page's queries
 * asked by two tabs), and a 200 is reused until anything is committed (PRAGMA data_version, db-state.ts) or
 * MAX_AGE_MS passes. The key is the whole path and query string, so only requests whose answer depends on the
 * database, the clock and their URL alone may come through here (app.ts says which).
 */
export function responseCache(db: () => Database.Database, o: Partial<Limits> & { clock?: () => number } = {}): MiddlewareHandler {
  const limits = { maxAgeMs: o.maxAgeMs ?? MAX_AGE_MS, maxBytes: o.maxBytes ?? MAX_CACHED_BYTES };
  const clock = o.clock ?? Date.now;
  // per middleware and connection: two apps over one connection (tests) keep their own
  const caches = new WeakMap<Database.Database, AnswerCache>();
  // A reused answer costs a fraction of a millisecond, 200 of them arriving together do not: they are handed
  // out one per turn, like the queries they stand for (query-turns.ts), so health never waits for a whole burst.
  const handOut = onePerTurn();
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const conn = db();
    let cache = caches.get(conn);
    if (!cache) caches.set(conn, (cache = new AnswerCache(limits)));
    const url = new URL(c.req.url);
    const key = url.pathname + url.search;
    const state = dbState(conn);
    const fresh = asksForFresh(c.req.header('cache-control'), c.req.header('pragma'));
    const hit = fresh ? undefined : cache.get(key, state, clock());
    if (hit) {
      await handOut();
      c.res = toResponse(hit, 'hit');
      return;
    }
    const flightKey = `${state}|${key}`;
    const running = fresh ? undefined : cache.inFlight.get(flightKey);
    if (running) {
      const a = await running;
      await handOut();
      c.res = toResponse(a, 'shared');
      return;
    }
    const started = clock();
    const answer = (async (): Promise<Answer> => {
      await next();
      const body = encodedBody(c.res) ?? new Uint8Array(await c.res.arrayBuffer());
      const a: Answer = { status: c.res.status, headers: [...c.res.headers], body };
      c.res = toResponse(a, 'miss');
      return a;
    })();
    cache.inFlight.set(flightKey, answer);
    try {
      const a = await answer;
      if (a.status === 200) cache.set(key, { ...a, state, at: started });
    } finally {
      cache.inFlight.delete(flightKey);
    }
  };
}
