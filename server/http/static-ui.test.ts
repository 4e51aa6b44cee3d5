import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { serveUi } from './static-ui';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-ui-'));
fs.mkdirSync(path.join(root, 'assets'));
fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>');
fs.writeFileSync(path.join(root, 'assets', 'TriagePage-abc.js'), 'export const x = 1;');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const app = new Hono().get('*', serveUi(root));
const get = async (p: string) => {
  const res = await app.request(`http://localhost${p}`);
  return { status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control'), body: await res.text() };
};

describe('the built UI', () => {
  it('serves a page chunk as JavaScript, cached for good (its name changes with its content)', async () => {
    expect(await get('/assets/TriagePage-abc.js')).toEqual({ status: 200, type: 'text/javascript; charset=utf-8', cache: 'public, max-age=31536000, immutable', body: 'export const x = 1;' });
  });

  it('deep links get index.html', async () => {
    expect(await get('/session/abc')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', cache: 'no-cache', body: '<!doctype html><title>app</title>' });
  });

  it('a chunk that is gone (a tab older than the build) is a 404, not index.html the browser cannot run as a module', async () => {
    expect(await get('/assets/TriagePage-old.js')).toMatchObject({ status: 404, cache: 'no-cache' });
  });
});
