import fs from 'node:fs';
import path from 'node:path';
import { defaultStateDir, type Options } from '../config';
import { defaultEnv, defaultUserDataDirs } from '../ingest/discover';

export function resolveDbPath(opts: Options): string {
  if (opts.db) return path.resolve(opts.db);
  return path.join(defaultStateDir(), opts.demo ? 'demo.db' : 'chronoscope.db');
}

export function demoCorpusDir(): string {
  return path.join(defaultStateDir(), 'demo-corpus');
}

/** --logs when given; otherwise every VS Code user-data folder that exists on this machine. */
export async function resolveRoots(opts: Options): Promise<{ roots: string[]; fromDefaults: boolean }> {
  if (opts.logs.length > 0) return { roots: opts.logs.map((p) => path.resolve(p)), fromDefaults: false };
  const dirs = defaultUserDataDirs(defaultEnv()).filter((d) => fs.existsSync(d));
  return { roots: dirs, fromDefaults: true };
}
