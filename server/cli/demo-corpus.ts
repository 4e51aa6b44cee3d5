import fs from 'node:fs';
import path from 'node:path';
import { corpusRoots } from '../corpus/corpus-roots';
import { removeDatabaseFiles } from '../db/open';
import { demoCorpusDir, resolveDbPath } from './locations';

/**
 * A generated corpus so that a first run without Copilot logs still shows a working dashboard (`--demo`); its
 * roots: the VS Code tree and the Copilot CLI home beside it.
 */
export async function ensureDemoCorpus(): Promise<string[]> {
  const dir = demoCorpusDir();
  const { GENERATOR_VERSION, generateCorpus } = await import('../corpus/generate');
  if (readGeneratorVersion(path.join(dir, 'manifest.json')) !== GENERATOR_VERSION) {
    // The demo's index goes with the corpus it was built from: the archive keeps every line it ever read, so the
    // old corpus's sessions would stay beside the new one's (a demo upgraded from generator 1 showed 93,182
    // events where a fresh one shows 47,437).
    removeDatabaseFiles(resolveDbPath({ db: null, demo: true }));
    await generateCorpus({ outDir: dir, seed: 7, targetBytes: 24 * 1024 * 1024, now: Date.now() });
  }
  return corpusRoots(dir);
}

/** The version of the generator that wrote a demo corpus (1 before it was recorded), or null when there is none. */
function readGeneratorVersion(manifestFile: string): number | null {
  try {
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { generatorVersion?: number };
    return m.generatorVersion ?? 1;
  } catch {
    return null; // missing or cut by a crash mid-write: generate again
  }
}
