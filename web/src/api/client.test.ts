import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError, apiUrl, getJson, postJson } from './client';

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body: string, statusText = '') {
  const fetch = vi.fn(async () => new Response(body, { status, statusText, headers: { 'Content-Type': 'application/json' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('apiUrl', () => {
  it('drops undefined and null parameters but keeps the empty string (repo= means "no repository")', () => {
    expect(apiUrl('/api/sessions', { repo: '', window: '7d', cursor: undefined, limit: null })).toBe('/api/sessions?repo=&window=7d');
    expect(apiUrl('/api/health')).toBe('/api/health');
  });
});

describe('getJson / postJson', () => {
  it('returns the parsed body and sends same-origin credentials', async () => {
    const fetch = stubFetch(200, '{"ok":true}');
    await expect(getJson('/api/health', { a: 1 })).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledWith('/api/health?a=1', expect.objectContaining({ method: 'GET', credentials: 'same-origin' }));
  });

  it('throws ApiRequestError with the code, message and details of the error body', async () => {
    stubFetch(400, JSON.stringify({ error: { code: 'bad_cursor', message: 'the cursor is not one this server issued', details: [1] } }));
    const err = await postJson('/api/sql', { sql: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err).toMatchObject({ status: 400, code: 'bad_cursor', message: 'the cursor is not one this server issued', details: [1], isClientError: true });
  });

  it('makes a readable error of a body that is not the error shape', async () => {
    stubFetch(502, '<html>Bad gateway</html>', 'Bad Gateway');
    await expect(getJson('/api/health')).rejects.toMatchObject({ status: 502, code: 'http_error', message: '502 Bad Gateway: <html>Bad gateway</html>' });
  });

  it('reports a server that does not answer as a network error (status 0)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(getJson('/api/health')).rejects.toMatchObject({ status: 0, code: 'network' });
  });
});
