// The bench's "newest 7 days" probe against the server's own split: the same sessions (Copilot CLI ones included,
// whose usage files once made every usage file of the machine one session), and done exactly when they are indexed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackfillProgress } from '../../shared/api';
import { corpusRoots } from '../../server/corpus/corpus-roots';
import { generateCorpus, type CorpusManifest } from '../../server/corpus/generate';
import { openWriteDb } from '../../server/db/open';
import { ensureSchema } from '../../server/db/schema';
import { Indexer } from '../../server/ingest/indexer';
import { newestWeekProbe } from './newest-week';

let dir: string;
let manifest: CorpusManifest;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-newest-week-'));
  manifest = await generateCorpus({ outDir: path.join(dir, 'corpus'), seed: 7, targetBytes: 3 * 2 ** 20 });
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('newest-week probe', () => {
  it("names the server's sessions of this week and is done exactly when their files are committed", async () => {
    const dbPath = path.join(dir, 'index.db');
    const db = openWriteDb(dbPath);
    ensureSchema(db);
    const probe = newestWeekProbe(manifest, dbPath);
    expect(probe.cliSessions).toBeGreaterThan(0);
    expect(probe.done()).toBe(false);
    // The server's own answer: the progress report at the moment this week is done (committed then).
    let doneAtWeek: boolean | null = null;
    let weekFiles = 0;
    const indexer = new Indexer(db, { roots: corpusRoots(manifest.outDir), watch: false }, {
      progress: (p: BackfillProgress) => {
        if (doneAtWeek === null && p.recent && p.recent.filesDone === p.recent.filesTotal && p.state === 'running') {
          doneAtWeek = probe.done();
          weekFiles = p.recent.filesTotal;
        }
      },
    });
    await indexer.start();
    await indexer.whenIdle();
    const weekSessions = db
      .prepare(
        `SELECT count(DISTINCT s.folder_session_id) n FROM sessions s JOIN files f ON f.session_id = s.id
         WHERE f.mtime >= (SELECT max(mtime) FROM files WHERE path LIKE '%.jsonl') - 7 * 86400000`,
      )
      .get() as { n: number };
    db.close();
    expect(doneAtWeek).toBe(true);
    expect(weekFiles).toBeGreaterThanOrEqual(probe.files);
    expect(probe.sessions).toBe(weekSessions.n);
  }, 60_000);
});
