// Runs the TypeScript check worker from source (tests, `npm run dev`): see server/ingest/worker-from-source.mjs.
import { register } from 'tsx/esm/api';

register();
await import('./check-worker.ts');
