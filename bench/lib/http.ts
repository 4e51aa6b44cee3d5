import http from 'node:http';

/**
 * Headers of a request whose answer the server must compute now (Cache-Control: no-cache,
 * server/http/response-cache.ts): the same request again would otherwise be its reused answer (~1 ms), and a row
 * would time that instead of the query, as the query rows did between the response cache and this header.
 */
export const COMPUTED: Record<string, string> = { 'Cache-Control': 'no-cache' };

/**
 * GET a path and return the parsed JSON body (null with `parse: false`), the time it took (ms) to its last byte,
 * keep-alive off to time whole requests, and how the server answered (`cache`: its X-Chronoscope-Cache, `miss` when
 * it computed the answer, null when it did not say).
 */
export function timedGet(base: string, path: string, o: { parse?: boolean; headers?: Record<string, string> } = {}): Promise<{ ms: number; status: number; body: unknown; cache: string | null }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { agent: false, headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - start;
        let body: unknown = null;
        try {
          if (o.parse !== false) body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = null;
        }
        const cache = res.headers['x-chronoscope-cache'];
        resolve({ ms, status: res.statusCode ?? 0, body, cache: typeof cache === 'string' ? cache : null });
      });
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`timeout: ${path}`)));
  });
}

export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if (await probe()) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}
