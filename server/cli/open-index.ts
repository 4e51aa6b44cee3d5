import type Database from 'better-sqlite3';
import fs from 'node:fs';
import type { Options } from '../config';
import { openReadDb, openWriteDbOrRecover } from '../db/open';
import { rebuildDerived } from '../db/rebuild';
import { derivedNeedRebuild, ensureSchema } from '../db/schema';
import { indexOnce } from '../ingest/index-once';
import { IngestStore } from '../ingest/store';
import { resolveDbPath, resolveRoots } from './locations';

/**
 * The database a query command reads: first brought up to date with the logs (an incremental pass, quick when
 * nothing changed; skipped with --no-index), then reopened read-only so that the command cannot write.
 */
export async function openIndexForQuery(opts: Options): Promise<Database.Database> {
  const dbPath = resolveDbPath(opts);
  if (!opts.noIndex) {
    const { withImports: roots } = await resolveRoots(opts);
    const { db, recovered } = openWriteDbOrRecover(dbPath);
  if (recovered) process.stderr.write(recovered + '\n');
    if (ensureSchema(db) || derivedNeedRebuild(db)) rebuildDerived(db, new IngestStore(db));
    await indexOnce(db, roots);
    db.close();
  } else if (!fs.existsSync(dbPath)) {
    throw new Error(`no index at ${dbPath}: run \`chronoscope index\` first or drop --no-index`);
  }
  return openReadDb(dbPath);
}
