// One search worker: its own read-only connection, one search at a time (search-pool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { openReadDb } from '../db/open';
import { ApiError } from '../http/errors';
import type { SearchJob, SearchReply } from './search-pool';
import { searchSessions } from './search-sessions';

const db = openReadDb((workerData as { dbPath: string }).dbPath);
const port = parentPort!;

port.on('message', (job: SearchJob) => {
  let reply: SearchReply;
  try {
    reply = { id: job.id, ok: true, response: searchSessions(db, job.input, job.now) };
  } catch (err) {
    reply =
      err instanceof ApiError
        ? { id: job.id, ok: false, api: { status: err.status, code: err.code, message: err.message, details: err.details } }
        : { id: job.id, ok: false, failure: { message: err instanceof Error ? err.message : String(err), code: (err as { code?: string }).code } };
  }
  port.postMessage(reply);
});
