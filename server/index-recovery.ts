import fs from 'node:fs';
import type { AppContext } from './app-context';
import { checkIndexInBackground } from './db/check-index';
import type { CheckResult } from './db/check-worker';
import { moveAside } from './db/damaged-index';
import { openReadDb, rebuildDamagedIndex } from './db/open';
import { attachSearch, searchDbPath } from './search-index/search-db';

export interface IndexRecoveryOptions {
  ctx: AppContext;
  dbPath: string;
  /** stops the ingest worker (the only writer) and waits until it is gone */
  stopIngest(): Promise<void>;
  /** starts a new ingest worker on the (new) index: it backfills from the logs */
  startIngest(): void;
  log?: (line: string) => void;
  /** runs quick_check on a file in a thread of its own (tests hand in their own) */
  check?: (file: string) => Promise<CheckResult>;
}

/**
 * What the server does when any connection (HTTP reads, the ingest worker, the SQL console, the start-up
 * check) finds the index damaged: stop the writer, move the file aside, create a new index that remembers why
 * (the health page shows it), point the read connection at it and index the logs again. The swap of the read
 * connection happens in one tick, so a request sees the old connection or the new one, never a closed one.
 */
export class IndexRecovery {
  private current: Promise<void> | null = null;
  /** recoveries done by this server (tests) */
  count = 0;

  constructor(private readonly o: IndexRecoveryOptions) {}

  /** The recovery under way, if any (close() waits for it). */
  async running(): Promise<void> {
    await this.current;
  }

  /**
   * Starts a recovery unless one is running (every reader of the damaged file reports it, often at once).
   * `damagedFile`: the file a check already found damaged (the archive or its search file); otherwise both are checked.
   */
  report(cause: string, damagedFile?: string): Promise<void> {
    this.current ??= this.recover(cause, damagedFile).finally(() => (this.current = null));
    return this.current;
  }

  /**
   * SQLite's "database disk image is malformed" names no file, and every reader has the search file attached. So
   * the files are checked before anything is moved: a damaged search file is moved aside alone (the search thread
   * refills it from the archive), and the archive is moved aside only when its own check finds the damage, or
   * cannot run. Moving a sound archive aside would lose every session whose logs Copilot has deleted since.
   */
  private async recover(cause: string, damagedFile?: string): Promise<void> {
    const { dbPath } = this.o;
    const check = this.o.check ?? checkIndexInBackground;
    const searchFile = searchDbPath(dbPath);
    if (damagedFile === searchFile) return this.replaceSearchFile(searchFile, cause);
    if (damagedFile === dbPath) return this.moveArchiveAside(cause);
    const search = fs.existsSync(searchFile) ? await check(searchFile) : { damage: null, error: null };
    if (search.damage !== null) return this.replaceSearchFile(searchFile, search.damage);
    const archive = await check(dbPath);
    if (archive.damage === null && archive.error === null) {
      // Neither file is damaged now (the report came from a file since replaced, or a read the disk got right
      // the second time): nothing is moved. The ingest may have stopped on it: it starts again.
      this.o.log?.(`A read of the index reported damage (${cause}), but neither ${dbPath} nor ${searchFile} is damaged: nothing was moved.`);
      await this.o.stopIngest();
      this.o.startIngest();
      return;
    }
    await this.moveArchiveAside(archive.damage ?? cause);
  }

  /** The search file alone: moved aside (kept, never deleted), every reader attached to a new one, refilled by the search thread. */
  private replaceSearchFile(file: string, damage: string): void {
    const { ctx, dbPath } = this.o;
    const aside = moveAside(file);
    // The read connection attaches the new, empty file at once (a statement still on the old one would report the
    // damage again); the read worker attaches it at its next job; the search thread notices the file was replaced
    // and fills it from the archive (health: "N events behind" meanwhile).
    attachSearch(ctx.db, dbPath);
    const reason = `The search index at ${file} was damaged (${damage}). It was moved to ${aside} and is being filled again from the archive; the archive itself was sound and kept.`;
    ctx.status.problems.push({ fileId: null, path: file, lineNo: null, byteOffset: null, kind: 'corrupt', reason, at: Date.now() });
    this.count++;
    this.o.log?.(reason);
  }

  private async moveArchiveAside(cause: string): Promise<void> {
    const { ctx, dbPath } = this.o;
    ctx.status.progress = { state: 'starting', filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
    try {
      await this.o.stopIngest();
      const { db, recovered } = rebuildDamagedIndex(dbPath, cause);
      db.close();
      const old = ctx.db;
      ctx.db = openReadDb(dbPath);
      old.close();
      // The read worker's connection still points at the file moved aside: its next request opens the new one.
      await ctx.readPool?.restart();
      this.count++;
      this.o.log?.(recovered);
    } catch (err) {
      const reason = `The index at ${dbPath} is damaged (${cause}) and could not be rebuilt: ${err instanceof Error ? err.message : String(err)}. Stop Chronoscope, move the file away and start it again.`;
      ctx.status.problems.push({ fileId: null, path: dbPath, lineNo: null, byteOffset: null, kind: 'corrupt', reason, at: Date.now() });
      this.o.log?.(reason);
      return; // a new writer on the same damaged file would only report it again
    }
    this.o.startIngest();
  }
}
