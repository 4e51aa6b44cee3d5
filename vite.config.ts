import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The UI is built into dist/web and served by the Hono server; `npm run dev` proxies /api to it.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:7311' } },
  test: {
    root: '.',
    include: ['scripts/**/*.test.ts', 'shared/**/*.test.ts', 'server/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'],
    // Generous: a test runs this long only when it fails, and the CI machine is slower than ours on its busy days.
    testTimeout: 120000,
    hookTimeout: 60000,
    pool: 'forks',
    // The JSON report feeds the `N passed, N failed` line that .ci/run prints.
    reporters: ['default', ['json', { outputFile: 'test-results/unit.json' }]],
  },
});
