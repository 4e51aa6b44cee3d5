import { defineConfig } from '@playwright/test';
import { E2E_CORPUS, E2E_DB, E2E_FIXTURES, E2E_PORT } from './support/paths';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../server/launch-flags';

// The real built server (dist/, built by `npm run test:e2e`) on a generated corpus, driven in Debian's Chromium
// (browsers cannot be downloaded here). One worker: specs share the server and some append to its logs.
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 45_000,
  expect: { timeout: 10_000 },
  retries: process.env.CI ? 1 : 0,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: '../test-results/e2e.json' }]],
  outputDir: '../test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    cwd: '..',
    command:
      `npx tsx e2e/prepare.ts && node ${SERVER_NODE_ARGS.join(' ')} dist/server/main.js serve --logs ${E2E_CORPUS} --logs ${E2E_FIXTURES} ` +
      // the corpus's Copilot CLI sessions (e2e/cli-sessions.spec.ts)
      `--copilot-home ${E2E_CORPUS}/.copilot ` +
      `--db ${E2E_DB} --port ${E2E_PORT}`,
    // /api/ready answers 200 only once the first backfill is done and searchable, so no spec races the indexer.
    // launched as bin/chronoscope.js launches it (server/launch-flags.ts); Playwright adds this to process.env
    env: { ...SERVER_ENV },
    url: `http://127.0.0.1:${E2E_PORT}/api/ready`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'pipe',
  },
});
