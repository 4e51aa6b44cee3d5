// Lays out the e2e corpus anew: a generated corpus plus every fixture in e2e/fixtures/*.ts that exports
// `writeFixture()`. Run by the Playwright webServer command before the server starts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from '../server/corpus/generate';
import { E2E_CACHE, E2E_CORPUS } from './support/paths';

const here = path.dirname(fileURLToPath(import.meta.url));
fs.rmSync(E2E_CACHE, { recursive: true, force: true });
fs.mkdirSync(E2E_CACHE, { recursive: true });
const manifest = await generateCorpus({ outDir: E2E_CORPUS, seed: 11, targetBytes: 3 * 1024 * 1024, now: Date.now() });
fs.writeFileSync(path.join(E2E_CORPUS, 'manifest.json'), JSON.stringify(manifest, null, 2));
for (const f of fs.readdirSync(path.join(here, 'fixtures')).sort()) {
  if (!f.endsWith('.ts')) continue;
  const mod = (await import(path.join(here, 'fixtures', f))) as { writeFixture?: () => void | Promise<void> };
  await mod.writeFixture?.();
}
console.log(`e2e corpus ready: ${manifest.totals.events} events in ${manifest.totals.sessions} sessions`);
