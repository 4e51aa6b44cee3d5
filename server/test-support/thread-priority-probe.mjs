// A worker thread for background-priority.test.ts: runs runInBackground from the TypeScript source (through tsx,
// since a worker does not inherit the test's loader) and reports the thread id it found and the nice it has after.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { currentThreadId, runInBackground } = await import('../threads/background-priority.ts');
const tid = currentThreadId();
const result = workerData === null ? runInBackground() : runInBackground(workerData);
const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8').split(')').pop().trim().split(/\s+/);
parentPort.postMessage({ tid, result, niceAfter: Number(stat[16]) });
