import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { youngGenerationSettling } from '../memory/young-generation';
import type { CheckResult } from './check-worker';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bundled `check-worker.js` beside the server bundle, or the TypeScript source run through tsx. */
function checkWorkerScript(): string {
  return import.meta.url.endsWith('.ts') ? path.join(here, 'check-worker-from-source.mjs') : path.join(here, 'check-worker.js');
}

/** Runs PRAGMA quick_check on the index in a thread of its own (check-worker.ts), off every other thread. */
export async function checkIndexInBackground(dbPath: string): Promise<CheckResult> {
  // A worker made while the ingest worker's is being made would take its young generation (young-generation.ts).
  await youngGenerationSettling();
  return new Promise((resolve) => {
    const w = new Worker(checkWorkerScript(), { workerData: { dbPath } });
    let answered = false;
    w.once('message', (r: CheckResult) => {
      answered = true;
      resolve(r);
    });
    w.once('error', (err) => {
      answered = true;
      resolve({ damage: null, error: err.message });
    });
    w.once('exit', (code) => {
      if (!answered) resolve({ damage: null, error: `the check stopped (exit code ${code})` });
    });
  });
}
