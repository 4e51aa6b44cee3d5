import type Database from 'better-sqlite3';
import fs from 'node:fs';
import type { Options } from '../config';
import { isCorruption } from '../db/damaged-index';
import { openReadDb, openWriteDbOrRecover, rebuildDamagedIndex } from '../db/open';
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
    const update = async ({ db, recovered }: { db: Database.Database; recovered: string | null }) => {
      if (recovered) process.stderr.write(recovered + '\n');
      try {
        if (ensureSchema(db) || derivedNeedRebuild(db)) rebuildDerived(db, new IngestStore(db));
        await indexOnce(db, roots);
      } finally {
        db.close();
      }
    };
    try {
      await update(openWriteDbOrRecover(dbPath));
    } catch (err) {
      // A damaged page met while bringing the index up to date: moved aside and rebuilt, as `index` does.
      if (!isCorruption(err)) throw err;
      await update(rebuildDamagedIndex(dbPath, err instanceof Error ? err.message : String(err)));
    }
  } else if (!fs.existsSync(dbPath)) {
    throw new Error(`no index at ${dbPath}: run \`chronoscope index\` first or drop --no-index`);
  }
  return openReadDb(dbPath);
}
