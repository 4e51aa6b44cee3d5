// Runs the search thread from the TypeScript source (tests, `npm run dev`): tsx's hooks are registered in this
// thread, since a worker does not inherit the loader of the thread that started it.
import { register } from 'tsx/esm/api';

register();
await import('./search-thread-main.ts');
