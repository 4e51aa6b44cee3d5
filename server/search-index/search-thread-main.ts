// The search thread: writes the search file (search-writer.ts) from what the ingest posts (search-thread.ts),
// beside the ingest worker, so that the trigram index's inserts and merges run on the other core.
import { parentPort, workerData } from 'node:worker_threads';
import { ArchiveCheckpointer, keepTrying } from '../db/write-ahead-log';
import { CatchUpRetry } from './catch-up-retry';
import type { SearchThreadReply, SearchThreadRequest } from './search-thread';
import { SearchWriter } from './search-writer';
import { unpackRows } from './packed-rows';
import { lowerThisThreadPriority, SEARCH_THREAD_NICE } from './thread-priority';
import { fullCollection } from '../memory/full-collection';
import { reportThreadMemory } from '../memory/thread-memory';
import { IDLE_RELEASE_MS, QuietTrim } from '../memory/quiet-trim';

const port = parentPort!;
lowerThisThreadPriority(SEARCH_THREAD_NICE);
const collectGarbage = fullCollection();
reportThreadMemory('search');
const post = (m: SearchThreadReply) => port.postMessage(m);
const input = workerData as { archivePath: string; restarted: boolean };
const writer = new SearchWriter(input.archivePath, (status) => post({ t: 'status', status }));
const retry = new CatchUpRetry(writer);
// The archive's log is checkpointed here, on this thread's spare time, not in the ingest thread's COMMIT.
const checkpointer = new ArchiveCheckpointer(input.archivePath);
let cancelFold: () => void = () => {};
// Idle a while (the backfill's rows written, or a live session's group): the heap V8 grew for the rows and the
// memory SQLite freed go back to the system (quiet-trim.ts, IDLE_RELEASE_MS).
const idle = new QuietTrim(() => {
  collectGarbage();
  writer.releaseMemory();
}, IDLE_RELEASE_MS);

port.on('message', (m: SearchThreadRequest) => {
  idle.activity();
  switch (m.t) {
    case 'rows': {
      writer.add(unpackRows(m.rows));
      post({ t: 'consumed', chars: m.chars });
      break;
    }
    case 'commit':
      writer.commit(m.through);
      checkpointer.afterCommit();
      break;
    case 'rollback':
      writer.rollback();
      break;
    case 'settle': {
      collectGarbage();
      writer.settle();
      // a query holding the log: fold it once the reader is done (an idle server commits nothing after this)
      const fold = () => {
        cancelFold();
        cancelFold = keepTrying(() => writer.foldLog());
      };
      fold();
      // the merges the backfill put off (FTS_MERGE_CONFIG), now that it is over; their log folded after them
      writer.compact(() => {
        fold();
        idle.activity();
      });
      break;
    }
    case 'crash':
      throw new Error('search thread crashed (test)');
    case 'stop':
      idle.stop();
      retry.stop();
      clearInterval(follow);
      cancelFold();
      checkpointer.close();
      writer.close();
      port.close();
      return;
  }
  retry.schedule();
});

// Started again after a crash, the open group's first rows died with the old thread: that group is read from the
// archive once it commits, like every group a failure cut (search-writer.ts, invariant 3).
writer.catchUp({ trustLiveRows: !input.restarted });
/** How often an idle thread looks whether its search file was deleted or replaced (a stat). */
const FOLLOW_FILE_MS = 5000;
const follow = setInterval(() => {
  writer.followFile();
  retry.schedule();
}, FOLLOW_FILE_MS);
retry.schedule();
post({ t: 'status', status: writer.status });
