import fs from 'node:fs';
import path from 'node:path';
import { demoCorpusDir } from './locations';

/** A generated corpus so that a first run without Copilot logs still shows a working dashboard (`--demo`). */
export async function ensureDemoCorpus(): Promise<string> {
  const dir = demoCorpusDir();
  if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
    const { generateCorpus } = await import('../corpus/generate');
    await generateCorpus({ outDir: dir, seed: 7, targetBytes: 24 * 1024 * 1024, now: Date.now() });
  }
  return dir;
}
