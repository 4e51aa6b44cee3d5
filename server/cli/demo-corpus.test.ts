import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusManifest } from '../corpus/generate';
import { openWriteDb } from '../db/open';
import { ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';
import { ensureDemoCorpus } from './demo-corpus';

// The demo is what a first run shows: it must show both hosts the product reads (issue 20), so its roots are
// the generated VS Code tree and the Copilot CLI home beside it (discovery never looks for a CLI home inside
// VS Code's user data, so the second root must be passed).
describe('the demo corpus', () => {
  let state: string;
  const saved = process.env.XDG_STATE_HOME;
  beforeAll(() => {
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-corpus-'));
    process.env.XDG_STATE_HOME = state;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
    fs.rmSync(state, { recursive: true, force: true });
  });

  it('is served from its VS Code tree and its Copilot CLI home, and indexes the CLI sessions of its manifest', async () => {
    const roots = await ensureDemoCorpus();
    const dir = path.join(state, 'chronoscope', 'demo-corpus');
    expect(roots).toEqual([dir, path.join(dir, '.copilot')]);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as CorpusManifest;
    const db = openWriteDb(path.join(state, 'demo.db'));
    try {
      ensureSchema(db);
      await indexOnce(db, roots);
      const cli = db.prepare("SELECT count(*) FROM sessions WHERE source = 'cli'").pluck().get();
      expect(cli).toBeGreaterThan(0);
      expect(cli).toBe(manifest.cli.sessions.length);
    } finally {
      db.close();
    }
  }, 120_000);

  it('drops the demo index when it regenerates the corpus (its archive would keep the old corpus beside the new), and keeps it otherwise', async () => {
    const dir = path.join(state, 'chronoscope', 'demo-corpus');
    const demoDb = path.join(state, 'chronoscope', 'demo.db');
    await ensureDemoCorpus();
    fs.writeFileSync(demoDb, 'index of this corpus');
    await ensureDemoCorpus(); // same generator: nothing regenerated, the index stays
    expect(fs.readFileSync(demoDb, 'utf8')).toBe('index of this corpus');
    const manifestFile = path.join(dir, 'manifest.json');
    const m = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { generatorVersion?: number };
    fs.writeFileSync(manifestFile, JSON.stringify({ ...m, generatorVersion: 1 }));
    for (const ext of ['-wal', '-shm']) fs.writeFileSync(demoDb + ext, 'x');
    await ensureDemoCorpus();
    expect(['', '-wal', '-shm'].map((ext) => fs.existsSync(demoDb + ext))).toEqual([false, false, false]);
    expect((JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { generatorVersion: number }).generatorVersion).not.toBe(1);
  }, 120_000);
});
