import type { AppContext } from './app-context';
import { openReadDb, rebuildDamagedIndex } from './db/open';

export interface IndexRecoveryOptions {
  ctx: AppContext;
  dbPath: string;
  /** stops the ingest worker (the only writer) and waits until it is gone */
  stopIngest(): Promise<void>;
  /** starts a new ingest worker on the (new) index: it backfills from the logs */
  startIngest(): void;
  log?: (line: string) => void;
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

  /** Starts a recovery unless one is running (every reader of the damaged file reports it, often at once). */
  report(cause: string): Promise<void> {
    this.current ??= this.recover(cause).finally(() => (this.current = null));
    return this.current;
  }

  private async recover(cause: string): Promise<void> {
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
