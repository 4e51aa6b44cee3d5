import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_ARGS, serverEnv } from './launch-flags';

// Every way the server is started passes node the same flags and environment: a launcher that forgot them would
// run with V8's 32 MB young generation on the main thread and glibc's arena per thread, and nothing else would notice.
describe('the server launch settings', () => {
  it('are what the module says', () => {
    expect(SERVER_NODE_ARGS).toEqual(['--max-semi-space-size=4', '--heap-growing-percent=20']);
    expect(SERVER_ENV).toEqual({ MALLOC_ARENA_MAX: '1' });
  });

  it('leave what the caller set: its environment wins', () => {
    expect(serverEnv({ MALLOC_ARENA_MAX: '4', HOME: '/h' })).toEqual({ MALLOC_ARENA_MAX: '4', HOME: '/h' });
    expect(serverEnv({ HOME: '/h' })).toEqual({ MALLOC_ARENA_MAX: '1', HOME: '/h' });
  });

  it('are on the first line of bin/chronoscope.js, through env -S (a shebang passes one argument)', () => {
    const first = fs.readFileSync('bin/chronoscope.js', 'utf8').split('\n')[0];
    const assignments = Object.entries(SERVER_ENV).map(([k, v]) => `${k}=${v}`);
    expect(first).toBe(`#!/usr/bin/env -S ${assignments.join(' ')} node ${SERVER_NODE_ARGS.join(' ')}`);
  });

  it('are what npm start, the bench server and the browser tests server start with', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('npm run build && node scripts/start-server.mjs serve --open');
    const start = fs.readFileSync('scripts/start-server.mjs', 'utf8');
    expect(start).toContain("from '../dist/server/launch-flags.js'");
    expect(start).toContain('[...SERVER_NODE_ARGS, ');
    expect(start).toContain('env: serverEnv(process.env)');
    expect(fs.readFileSync('scripts/build-server.mjs', 'utf8')).toContain("'launch-flags': 'server/launch-flags.ts'");
    const bench = fs.readFileSync('bench/measure/server-process.ts', 'utf8');
    expect(bench).toContain("[...SERVER_NODE_ARGS, path.resolve('dist/server/main.js')");
    expect(bench).toContain('env: serverEnv(');
    const e2e = fs.readFileSync('e2e/playwright.config.ts', 'utf8');
    expect(e2e).toContain("node ${SERVER_NODE_ARGS.join(' ')} dist/server/main.js serve");
    expect(e2e).toContain('env: { ...SERVER_ENV }');
  });

  it('are taken by this node, and cap the young generation (a typo would stop the server at start)', () => {
    // Allocating fast with some survivors grows new space to its maximum: 32 MB of committed semi-spaces by default.
    const script =
      'const keep = []; for (let i = 0; i < 3e6; i++) { const o = { a: i, b: [i] }; if (i % 10 === 0) keep.push(o); if (keep.length > 2e5) keep.length = 0; }' +
      'const s = require("v8").getHeapSpaceStatistics().find((x) => x.space_name === "new_space"); process.stdout.write(String(s.space_size / 2 ** 20))';
    const r = spawnSync(process.execPath, [...SERVER_NODE_ARGS, '-e', script], { encoding: 'utf8', env: serverEnv(process.env) });
    expect(r.stderr).toBe('');
    expect(Number(r.stdout)).toBeLessThanOrEqual(8);
  });
});
