import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus } from '../corpus/generate';
import { ARCHIVE_FTS_TABLES } from '../ingest/archive-text-compaction';
import { startServer, type RunningServer } from '../serve';
import { until } from '../test-support/until';
import { ftsSegments } from '../test-support/fts-merging';
import { SEARCH_FTS_TABLES, searchDbPath } from './search-db';

// The wiring of fts-compaction.ts: once serve's backfill settles, the search thread merges the search file and
// the ingest thread the archive's FTS5 tables, each recording how far.

let root: string;
let server: RunningServer;
let dbPath: string;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-merge-after-backfill-'));
  await generateCorpus({ outDir: path.join(root, 'corpus'), seed: 23, targetBytes: 1536 * 1024 });
  dbPath = path.join(root, 'index.db');
  server = await startServer({ dbPath, roots: [path.join(root, 'corpus')], port: 0, host: '127.0.0.1', token: null, demo: false, webRoot: null, version: 'test' });
  await server.backfilled;
}, 120_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** How far each file's FTS5 tables were merged, and each table's segment count. */
function merged(file: string, tables: readonly string[], mark: string) {
  const db = new Database(file, { readonly: true });
  try {
    const table = file.endsWith('.search.db') ? 'search_meta' : 'meta';
    const through = db.prepare(`SELECT value FROM ${table} WHERE key = ?`).pluck().get(mark) as string | undefined;
    return { through: through ?? null, segments: tables.map((t) => ftsSegments(db, t)) };
  } finally {
    db.close();
  }
}

describe('after a backfill settles', () => {
  it('the search file and the archive have their FTS5 tables merged, through the last line indexed', async () => {
    const archive = new Database(dbPath, { readonly: true });
    const lastLine = String(archive.prepare('SELECT max(id) FROM lines').pluck().get());
    archive.close();
    expect(Number(lastLine)).toBeGreaterThan(2_000);
    const search = await until(() => merged(searchDbPath(dbPath), SEARCH_FTS_TABLES, 'merged_through'), (m) => m.through !== null);
    expect(search).toEqual({ through: lastLine, segments: [1, 1, 1, 1] });
    const own = await until(() => merged(dbPath, ARCHIVE_FTS_TABLES, 'fts_merged_through'), (m) => m.through !== null);
    // session_text, file_text, companion_text, companion_cjk, search_index
    expect(own).toEqual({ through: lastLine, segments: [1, 1, 1, 1, 1] });
  });
});
