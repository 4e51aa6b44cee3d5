// Runs the SQL console's process from the TypeScript source (tests, `npx tsx server/main.ts`): tsx's hooks are
// registered here, since a forked process does not inherit the loader of its parent.
import { register } from 'tsx/esm/api';

register();
await import('./query-process.ts');
