import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer, type RunningServer } from '../serve';
import { fixtureDb, line, type FixtureDb } from '../test-support/fixture-db';

/** A real server (ingest worker, read-only connection, the whole middleware chain) on port 0 over fixture logs. */
export interface TestServer {
  server: RunningServer;
  port: number;
  fx: FixtureDb;
  close(): Promise<void>;
}

export const SESSION_ID = 'sec-s1';
const T0 = 1_775_000_000_000;

/** One small session with a companion file, so that /api/sessions, /api/files/:id and the stream have data. */
export function defaultLogs(): Record<string, string> {
  return {
    [`${SESSION_ID}/main.jsonl`]:
      line({ v: 1, ts: T0, dur: 0, sid: SESSION_ID, type: 'session_start', name: 'session_start', spanId: `session-start-${SESSION_ID}`, status: 'ok', attrs: {} }) +
      line({ ts: T0 + 10, dur: 0, sid: SESSION_ID, type: 'user_message', name: 'user_message', spanId: 'sec0000000000a1', status: 'ok', attrs: { content: 'secret prompt text' } }),
    [`${SESSION_ID}/system_prompt_0.json`]: JSON.stringify({ content: 'You are a helpful assistant. <script>window.__pwned=1</script>' }),
    [`${SESSION_ID}/models.json`]: JSON.stringify([{ id: 'gpt-4.1' }]),
  };
}

export async function startTestServer(o: { host?: string; token?: string | null; logs?: Record<string, string>; webRoot?: boolean } = {}): Promise<TestServer> {
  // fixtureDb lays out the workspace tree; the server indexes it again into its own database.
  const fx = await fixtureDb(o.logs ?? defaultLogs());
  let webRoot: string | null = null;
  if (o.webRoot !== false) {
    webRoot = path.join(fx.root, 'web');
    fs.mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Chronoscope</title><div id="root"></div><script type="module" src="/assets/app.js"></script>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log("ui")');
  }
  const server = await startServer({
    dbPath: path.join(fx.root, 'served.db'),
    roots: [path.join(fx.root, 'Code')],
    port: 0,
    host: o.host ?? '127.0.0.1',
    token: o.token ?? null,
    demo: false,
    webRoot,
    version: 'test',
  });
  await server.backfilled;
  const port = Number(new URL(server.url).port);
  return {
    server,
    port,
    fx,
    async close() {
      await server.close();
      fx.cleanup();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A raw HTTP/1.1 request with exactly the headers given (`Host` included: fetch() would not let a test set it).
 * `host: null` sends no Host header at all. `stopAfterMs` ends a streaming response (SSE) and returns what came.
 */
export function rawRequest(
  port: number,
  o: { method?: string; path?: string; host?: string | null; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean; stopAfterMs?: number },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.host !== null) headers.Host = o.host ?? `127.0.0.1:${port}`;
    if (o.body !== undefined && !o.chunked) headers['Content-Length'] = String(Buffer.byteLength(o.body));
    if (o.chunked) headers['Transfer-Encoding'] = 'chunked';
    const req = http.request({ host: '127.0.0.1', port, method: o.method ?? 'GET', path: o.path ?? '/', headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let timer: NodeJS.Timeout | undefined;
      const finish = () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      };
      if (o.stopAfterMs !== undefined) {
        timer = setTimeout(() => {
          finish();
          req.destroy();
        }, o.stopAfterMs);
      }
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', finish);
      res.on('error', () => finish());
    });
    req.on('error', (err) => {
      // The server may answer 413 and close before the whole body is sent: that is an answer, not a failure.
      if ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      reject(err);
    });
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
