import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { openWriteDb } from '../db/open';
import { ensureSchema, getMeta } from '../db/schema';
import { ARCHIVE_FTS_TABLES, compactArchiveText } from './archive-text-compaction';
import { ftsSegments, indexInRuns } from '../test-support/fts-merging';

let dir: string;
let corpus: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-archive-merge-'));
  corpus = path.join(dir, 'corpus');
  await generateCorpus({ outDir: corpus, seed: 11, targetBytes: 1024 * 1024 });
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const segments = (db: Database.Database) => ARCHIVE_FTS_TABLES.map((t) => ftsSegments(db, t));
/** What the searches of the archive's FTS5 tables answer: the rowids of a title word, a path and a Chronicle query. */
const answers = (db: Database.Database) => ({
  titles: db.prepare(`SELECT rowid FROM session_text WHERE session_text MATCH '"fix"' ORDER BY rowid`).pluck().all(),
  paths: db.prepare(`SELECT rowid FROM file_text WHERE file_text MATCH '"src/"' ORDER BY rowid`).pluck().all(),
  chronicle: db.prepare(`SELECT rowid FROM search_index WHERE search_index MATCH 'test' ORDER BY rowid`).pluck().all(),
});

/** An archive of the corpus indexed in three runs (indexInRuns), each leaving segments of its own. */
async function archiveGrownInThreeRuns(name: string): Promise<Database.Database> {
  const db = openWriteDb(path.join(dir, `${name}.db`));
  ensureSchema(db);
  await indexInRuns(db, corpus, path.join(dir, `${name}-corpus`));
  return db;
}

describe("the archive's FTS5 tables after a backfill", () => {
  it('are merged into one segment each, answer exactly as before, and are not merged again until the archive grew', async () => {
    const db = await archiveGrownInThreeRuns('merged');
    const before = segments(db);
    expect(before[0]).toBeGreaterThanOrEqual(3); // session_text
    const was = answers(db);
    expect(was.titles.length).toBeGreaterThan(0);
    expect(was.paths.length).toBeGreaterThan(0);
    expect(was.chronicle.length).toBeGreaterThan(0);
    const lastLine = db.prepare('SELECT max(id) FROM lines').pluck().get();
    await new Promise<void>((done) => compactArchiveText(db, { damaged: () => expect.unreachable(), onDone: done, minGrowth: 1 }));
    // one segment for each table that holds anything (the generated corpus has no companion text: none there)
    expect(segments(db)).toEqual(before.map((n) => Math.min(n, 1)));
    expect(answers(db)).toEqual(was);
    expect(getMeta(db, 'fts_merged_through')).toBe(String(lastLine));
    expect(compactArchiveText(db, { damaged: () => expect.unreachable(), minGrowth: 1 })).toBe(null);
    db.close();
  }, 120_000);

  it("takes no step inside the indexer's open group, and finishes once it is committed", async () => {
    const db = await archiveGrownInThreeRuns('group');
    const before = segments(db);
    db.exec('BEGIN');
    let done = false;
    const c = compactArchiveText(db, { damaged: () => expect.unreachable(), onDone: () => (done = true), minGrowth: 1 });
    expect(c?.active).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    db.exec('COMMIT');
    expect(segments(db)).toEqual(before);
    const until = Date.now() + 20_000;
    while (!done && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(true);
    expect(segments(db)).toEqual(before.map((n) => Math.min(n, 1)));
    db.close();
  }, 120_000);
});
