import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Everything the e2e server reads and writes lives here; `e2e/prepare.ts` lays it out anew for every run. */
export const E2E_CACHE = path.resolve(here, '..', '.cache');
/** The generated corpus (a VS Code user-data tree) the server indexes. */
export const E2E_CORPUS = path.join(E2E_CACHE, 'corpus');
/** A second user-data tree of hand-written fixtures (`e2e/fixtures/*.ts`): hostile content, live appends. */
export const E2E_FIXTURES = path.join(E2E_CACHE, 'fixtures', 'Code');
export const E2E_DB = path.join(E2E_CACHE, 'e2e.db');
/** Overridable so two checkouts can run the browser tests at once. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 7398);

/** The debug-logs folder of a fixture workspace, created by `fixtureWorkspace`. */
export function fixtureLogsDir(workspace: string): string {
  return path.join(E2E_FIXTURES, 'User', 'workspaceStorage', workspace, 'GitHub.copilot-chat', 'debug-logs');
}
