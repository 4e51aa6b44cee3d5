import { RetryBackoff } from '../ingest/disk-full';
import type { SearchWriter } from './search-writer';

/**
 * A failure (a full disk, a file just replaced) left search behind: catch up again after a growing delay, by
 * itself. One for the search thread (search-thread-main.ts) and the writer on the caller's thread (search-feed.ts).
 */
export class CatchUpRetry {
  private backoff = new RetryBackoff();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly writer: SearchWriter) {}

  /** After anything that may have left the writer behind (a commit, a look at its file): a retry unless one waits. */
  schedule(): void {
    if (!this.writer.behind) {
      this.backoff.reset();
      return;
    }
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writer.catchUp();
      this.schedule();
    }, this.backoff.next());
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
