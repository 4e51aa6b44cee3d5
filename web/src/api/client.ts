import type { ErrorBody } from '../../../shared/api';

/** A failed API call: the server's one error body (`{ error: { code, message, details? } }`) with the HTTP status. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** A 4xx will fail the same way again: not worth retrying. Network failures have status 0. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/**
 * `/api/x` plus the parameters that have a value. `undefined` and `null` are left out; an empty string is
 * kept because it means something (e.g. `repo=` is "sessions without a repository").
 */
export function apiUrl(path: string, params?: QueryParams): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) {
    if (v === undefined || v === null) continue;
    search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Turns a non-2xx response into an ApiRequestError, whatever its body (a proxy may answer with HTML). */
export async function errorFromResponse(res: Response): Promise<ApiRequestError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as Partial<ErrorBody>;
    if (body.error && typeof body.error.message === 'string') {
      return new ApiRequestError(res.status, String(body.error.code ?? 'error'), body.error.message, body.error.details);
    }
  } catch {
    /* not JSON: fall through */
  }
  const snippet = text.trim().slice(0, 200);
  return new ApiRequestError(res.status, 'http_error', `${res.status} ${res.statusText}${snippet ? `: ${snippet}` : ''}`);
}

async function request<T>(url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { credentials: 'same-origin', ...init, headers: { Accept: 'application/json', ...init.headers } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiRequestError(0, 'network', 'the Chronoscope server did not answer: is it still running?');
  }
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

/** GET a JSON API route. `signal` comes from react-query so that abandoned requests are cancelled. */
export function getJson<T>(path: string, params?: QueryParams, opts: { signal?: AbortSignal } = {}): Promise<T> {
  return request<T>(apiUrl(path, params), { method: 'GET', signal: opts.signal });
}

/** POST a JSON body to an API route. */
export function postJson<T>(path: string, body: unknown, opts: { signal?: AbortSignal } = {}): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
    signal: opts.signal,
  });
}

/** GET a text route (Markdown export): the body as it is, errors in the one error shape. */
export async function getText(path: string, params?: QueryParams): Promise<string> {
  const res = await fetch(apiUrl(path, params), { credentials: 'same-origin' });
  if (!res.ok) throw await errorFromResponse(res);
  return res.text();
}

/** POST a file's text as it is (an OTLP JSON import): the server parses it. */
export function postText<T>(path: string, text: string): Promise<T> {
  return request<T>(path, { method: 'POST', body: text, headers: { 'Content-Type': 'application/json' } });
}
