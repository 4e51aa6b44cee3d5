// Bundles the server, the ingest worker, the index check's thread, the read worker, the search thread, the launch settings (scripts/start-server.mjs), the SQL console's process and the benchmark runner into dist/ (native and npm packages stay external).
import { build } from 'esbuild';
import { pruneBuild } from './prune-build.mjs';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' };
// splitting: a module imported with import() becomes a chunk of its own, its npm packages imported there, not at the
// top of the entry that may need it (the MCP SDK and the OpenTelemetry packages: server/cli/commands.ts).
const server = await build({ ...common, splitting: true, metafile: true, entryPoints: { main: 'server/main.ts', worker: 'server/ingest/worker.ts', 'sql-process': 'server/sql/query-process.ts', 'check-worker': 'server/db/check-worker.ts', 'read-worker': 'server/read-pool/read-worker.ts', 'search-thread': 'server/search-index/search-thread-main.ts', 'launch-flags': 'server/launch-flags.ts' }, outdir: 'dist/server' });
// what older builds of changed sources left (prune-build.mjs)
pruneBuild('dist/server', Object.keys(server.metafile.outputs));
await build({ ...common, entryPoints: { run: 'bench/run.ts', 'generate-corpus': 'bench/generate-corpus.ts' }, outdir: 'dist/bench' }).catch((e) => {
  // The benchmark is optional for serving; report and carry on.
  console.warn('bench not built:', e.message);
});
