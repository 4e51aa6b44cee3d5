// What each thread loads before it runs. The ingest worker and the search thread start with every `serve` and
// `index`, on the backfill's critical path: zod and its schemas (~47 ms a thread) and yaml (~17 ms) were loaded by
// both through the HTTP contract's constants (shared/api), which they now import from zod-free modules. The bundle
// is made as scripts/build-server.mjs makes it, and the npm packages an entry reaches through static imports listed.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

async function packagesLoadedAtStart(entry: string): Promise<string[]> {
  const r = await build({ bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', metafile: true, write: false, entryPoints: [entry], outdir: 'out', logLevel: 'silent' });
  const packages = new Set<string>();
  // static imports only, from the entry: a module reached by import() loads when it is needed, not at the start
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of r.metafile.inputs[file].imports) {
      if (i.kind !== 'import-statement') continue;
      if (!i.external) visit(i.path);
      else if (!i.path.startsWith('node:')) packages.add(i.path);
    }
  };
  visit(entry);
  return [...packages].sort();
}

describe('packages each thread loads at its start', () => {
  it('the ingest worker and the search thread: SQLite only', async () => {
    expect(await packagesLoadedAtStart('server/ingest/worker.ts')).toEqual(['better-sqlite3']);
    expect(await packagesLoadedAtStart('server/search-index/search-thread-main.ts')).toEqual(['better-sqlite3']);
  }, 30_000);
});
