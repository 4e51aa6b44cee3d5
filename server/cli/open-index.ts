import type Database from 'better-sqlite3';
import fs from 'node:fs';
import type { Options } from '../config';
import { isCorruption } from '../db/damaged-index';
import { inOneSnapshot } from '../db/one-snapshot';
import { openReadDb, openWriteDbOrRecover, rebuildDamagedIndex } from '../db/open';
import { rebuildDerived } from '../db/rebuild';
import { derivedNeedRebuild, ensureSchema } from '../db/schema';
import { isDiskFull } from '../ingest/disk-full';
import { indexOnce } from '../ingest/index-once';
import type { Indexer } from '../ingest/indexer';
import { importsRoot } from '../import/write-imported';
import { IngestStore } from '../ingest/store';
import { CliError, diskFullError } from './cli-error';
import { ensureDemoCorpus } from './demo-corpus';
import { noLogsHint, requireRoots, resolveDbPath } from './locations';
import { indexTotals } from '../counts/index-totals';

/**
 * What a one-shot command indexes: --demo's generated corpus, the --logs folders (each must be readable), or
 * the defaults; `withImports` adds the database's imports tree (`chronoscope import`) when it exists.
 */
export async function commandRoots(opts: Options): Promise<{ roots: string[]; fromDefaults: boolean; withImports: string[] }> {
  if (!opts.demo) return requireRoots(opts);
  const roots = await ensureDemoCorpus();
  const imports = importsRoot(resolveDbPath(opts));
  return { roots, fromDefaults: false, withImports: fs.existsSync(imports) ? [...roots, imports] : roots };
}

/** Runs a step that writes the index; a full disk becomes the one line that names the database. */
async function writing<T>(dbPath: string, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw isDiskFull(err) ? diskFullError(dbPath, err) : err;
  }
}

/**
 * The index opened for writing (`open`: as usual, or moved aside and created anew after damage), derived tables
 * rebuilt when their schema changed.
 */
function openIndexForWrite(dbPath: string, open: () => { db: Database.Database; recovered: string | null }): Promise<Database.Database> {
  return writing(dbPath, () => {
    const { db, recovered } = open();
    if (recovered) process.stderr.write(recovered + '\n');
    try {
      if (ensureSchema(db) || derivedNeedRebuild(db)) {
        const n = rebuildDerived(db, new IngestStore(db));
        if (n > 0) process.stderr.write(`rebuilt derived tables from ${n} archived lines\n`);
      }
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  });
}

/**
 * Brings the index up to date with the roots and leaves it open for the caller; `opened` sees each database
 * before it is indexed. A damaged page met on the way (only the header is checked on open): the file is moved
 * aside, rebuilt from the logs and indexed again. A full disk is a CliError naming the database.
 */
export async function updateIndex(dbPath: string, roots: string[], opened: (db: Database.Database) => void = () => {}): Promise<{ db: Database.Database; indexer: Indexer }> {
  let db = await openIndexForWrite(dbPath, () => openWriteDbOrRecover(dbPath));
  try {
    opened(db);
    return { db, indexer: await writing(dbPath, () => indexOnce(db, roots)) };
  } catch (err) {
    db.close();
    if (!isCorruption(err)) throw err;
    db = await openIndexForWrite(dbPath, () => rebuildDamagedIndex(dbPath, err instanceof Error ? err.message : String(err)));
    try {
      opened(db);
      return { db, indexer: await writing(dbPath, () => indexOnce(db, roots)) };
    } catch (again) {
      db.close();
      throw again;
    }
  }
}

/**
 * The database a query command reads: first brought up to date with the logs (an incremental pass, quick when
 * nothing changed; skipped with --no-index), then reopened read-only so that the command cannot write.
 */
export async function openIndexForQuery(opts: Options): Promise<Database.Database> {
  const dbPath = resolveDbPath(opts);
  if (!opts.noIndex) {
    const { roots, withImports } = await commandRoots(opts);
    const { db, indexer } = await updateIndex(dbPath, withImports);
    // no log found and nothing archived: say how to get logs, not only "no sessions found"
    const empty = indexer.progress.filesTotal === 0 && indexTotals(db).sessions === 0;
    db.close();
    if (empty) process.stderr.write(noLogsHint(roots.length > 0 ? roots : withImports));
  } else if (!fs.existsSync(dbPath)) {
    throw new CliError('no_index', `no index at ${dbPath}: run \`chronoscope index\` first or drop --no-index`);
  } else if (fs.statSync(dbPath).isDirectory()) {
    throw new CliError('no_index', `${dbPath} is a folder, not an index: pass --db FILE`);
  }
  try {
    return openReadDb(dbPath);
  } catch (err) {
    throw readFailure(err, dbPath);
  }
}

/**
 * What a read of the index that failed tells the user: a damaged file (or one that is not an index) is named with
 * what to do. A read never moves a file aside: the index command does (openWriteDbOrRecover), and says so.
 */
function readFailure(err: unknown, dbPath: string): unknown {
  if (!isCorruption(err)) return err;
  return new CliError('corrupt', `the index ${dbPath} is damaged or not an index (${(err as Error).message}): run \`chronoscope index --db ${dbPath}\` to move it aside and build it again from the logs`);
}

/**
 * What a query command does with the index: brings it up to date and opens it (openIndexForQuery), runs `read` in
 * one snapshot of it (a server may be indexing meanwhile: one-snapshot.ts), and closes it.
 */
export async function readIndex<T>(opts: Options, read: (db: Database.Database) => T): Promise<T> {
  const db = await openIndexForQuery(opts);
  try {
    return inOneSnapshot(db, read);
  } catch (err) {
    throw readFailure(err, resolveDbPath(opts));
  } finally {
    db.close();
  }
}
