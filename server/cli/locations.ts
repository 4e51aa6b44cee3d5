import fs from 'node:fs';
import path from 'node:path';
import { defaultStateDir, type Options } from '../config';
import { importsRoot } from '../import/write-imported';
import { defaultEnv, defaultUserDataDirs } from '../ingest/discover';

export function resolveDbPath(opts: Options): string {
  if (opts.db) return path.resolve(opts.db);
  return path.join(defaultStateDir(), opts.demo ? 'demo.db' : 'chronoscope.db');
}

export function demoCorpusDir(): string {
  return path.join(defaultStateDir(), 'demo-corpus');
}

/**
 * --logs when given; otherwise every VS Code user-data folder that exists on this machine. The database's own
 * imports tree (`chronoscope import`) is read too, whichever it is. `roots` holds only the user's logs (what
 * decides "no logs found"); `withImports` adds the imports tree when it exists.
 */
export async function resolveRoots(opts: Options): Promise<{ roots: string[]; fromDefaults: boolean; withImports: string[] }> {
  const imports = importsRoot(resolveDbPath(opts));
  const add = (roots: string[]) => (fs.existsSync(imports) ? [...roots, imports] : roots);
  if (opts.logs.length > 0) {
    const roots = opts.logs.map((p) => path.resolve(p));
    return { roots, fromDefaults: false, withImports: add(roots) };
  }
  const dirs = defaultUserDataDirs(defaultEnv()).filter((d) => fs.existsSync(d));
  return { roots: dirs, fromDefaults: true, withImports: add(dirs) };
}
