// The search thread: writes the search file (search-writer.ts) from what the ingest posts (search-thread.ts),
// beside the ingest worker, so that the trigram index's inserts and merges run on the other core.
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { keepTrying } from '../db/write-ahead-log';
import { RetryBackoff } from '../ingest/disk-full';
import type { SearchThreadReply, SearchThreadRequest } from './search-thread';
import { SearchWriter } from './search-writer';
import { reportThreadMemory } from '../memory/thread-memory';

const port = parentPort!;
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
reportThreadMemory('search');
const post = (m: SearchThreadReply) => port.postMessage(m);
const input = workerData as { archivePath: string; restarted: boolean };
const writer = new SearchWriter(input.archivePath, (status) => post({ t: 'status', status }));
const backoff = new RetryBackoff();
let retry: NodeJS.Timeout | undefined;
let cancelFold: () => void = () => {};

/** A full disk (or a file just replaced) left search behind: catch up again after a growing delay, by itself. */
function scheduleRetry(): void {
  if (!writer.behind) {
    backoff.reset();
    return;
  }
  if (retry !== undefined) return;
  retry = setTimeout(() => {
    retry = undefined;
    writer.catchUp();
    scheduleRetry();
  }, backoff.next());
}

port.on('message', (m: SearchThreadRequest) => {
  switch (m.t) {
    case 'rows':
      writer.add(m.ids, m.texts, m.cjks);
      post({ t: 'consumed', chars: m.chars });
      break;
    case 'commit':
      writer.commit(m.through);
      break;
    case 'rollback':
      writer.rollback();
      break;
    case 'settle':
      collectGarbage();
      // a query holding the log: fold it once the reader is done (an idle server commits nothing after this)
      if (!writer.settle()) {
        cancelFold();
        cancelFold = keepTrying(() => writer.foldLog());
      }
      break;
    case 'crash':
      throw new Error('search thread crashed (test)');
    case 'stop':
      clearTimeout(retry);
      clearInterval(follow);
      cancelFold();
      writer.close();
      port.close();
      return;
  }
  scheduleRetry();
});

// Started again after a crash, the open group's first rows died with the old thread: that group is read from the
// archive once it commits, like every group a failure cut (search-writer.ts, invariant 3).
writer.catchUp({ trustLiveRows: !input.restarted });
/** How often an idle thread looks whether its search file was deleted or replaced (a stat). */
const FOLLOW_FILE_MS = 5000;
const follow = setInterval(() => {
  writer.followFile();
  scheduleRetry();
}, FOLLOW_FILE_MS);
scheduleRetry();
post({ t: 'status', status: writer.status });
