import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEBUG_LOG_SETTING } from '../../shared/debug-log-setting';
import { formatCount, plural } from '../../shared/format-numbers';
import type { Options } from '../config';
import { indexTotals, type IndexTotals } from '../counts/index-totals';
import { resolveForwardConfig } from '../forward/forward-config';
import { resolveRoot } from '../ingest/discover';
import { isDiskFull } from '../ingest/disk-full';
import { importsRoot } from '../import/write-imported';
import { ListenError, startServer } from '../serve';
import { VERSION } from '../version';
import { CliError, diskFullError } from './cli-error';
import { archivedSessions } from './archived-sessions';
import { ensureDemoCorpus } from './demo-corpus';
import { logsFolderProblem, resolveDbPath, resolveRoots } from './locations';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The built UI: dist/web beside dist/server when bundled; from the sources, the repository's dist/web. */
function findWebRoot(): string | null {
  if (process.env.CHRONOSCOPE_WEB_ROOT) return process.env.CHRONOSCOPE_WEB_ROOT;
  for (const c of [path.join(here, '..', 'web'), path.join(here, '..', '..', 'dist', 'web'), path.join(here, '..', '..', '..', 'dist', 'web')]) {
    if (fs.existsSync(path.join(c, 'index.html'))) return c;
  }
  return null;
}

async function hasCopilotLogs(roots: string[]): Promise<boolean> {
  for (const r of roots) if ((await resolveRoot(r)).workspaces.length > 0) return true;
  return false;
}

const TURN_ON = `To record your sessions, turn on the VS Code setting\n  ${DEBUG_LOG_SETTING}\n`;

/**
 * Which logs to serve. The demo corpus only with --demo, or when no --logs was given, discovery finds no logs,
 * no --db was named and the default index holds no session (an archive whose logs are gone is served as it is):
 * it never lands in a database the user chose. A --logs folder that is missing or
 * unreadable is served as a problem (health, the UI's banner) and watched until it appears.
 */
async function chooseRoots(opts: Options): Promise<{ roots: string[]; demo: boolean }> {
  if (opts.demo) return { roots: await ensureDemoCorpus(), demo: true };
  const { roots, fromDefaults } = await resolveRoots(opts);
  if (!fromDefaults) {
    for (const r of roots) {
      const problem = logsFolderProblem(r);
      if (problem) process.stdout.write(`--logs ${r}: ${problem.startsWith(r) ? problem.slice(r.length + 1) : problem}; watching for it to appear.\n`);
    }
    return { roots, demo: false };
  }
  if (await hasCopilotLogs(roots)) return { roots, demo: false };
  process.stdout.write('No Copilot Chat debug logs found on this machine.\n');
  const index = resolveDbPath({ ...opts, demo: false });
  const kept = archivedSessions(index);
  if (kept > 0) {
    process.stdout.write(`Serving the index ${index}: ${plural(kept, 'session')} indexed before, kept after ${kept === 1 ? 'its' : 'their'} logs are gone; new sessions appear as they are written. ${TURN_ON}`);
    return { roots, demo: false };
  }
  if (opts.db) {
    process.stdout.write(`Serving the empty index ${path.resolve(opts.db)} (the demo corpus never goes into a database named with --db); new sessions appear as they are written. ${TURN_ON}`);
    return { roots, demo: false };
  }
  process.stdout.write(`Serving a generated demo corpus. ${TURN_ON}`);
  return { roots: await ensureDemoCorpus(), demo: true };
}

export async function runServe(opts: Options): Promise<number> {
  const { roots, demo } = await chooseRoots(opts);
  const dbPath = resolveDbPath({ ...opts, demo });
  // Sessions imported from OTLP files (the CLI's `import`, a file dropped on the Sessions page) live beside the
  // database; startServer makes the folder once the index is open (so that what stops both is said of the index)
  // and before the watcher starts, which follows what arrives in it.
  const imports = importsRoot(dbPath);
  const forward = resolveForwardConfig({ flags: opts.flags, env: process.env, configFile: typeof opts.flags.config === 'string' ? opts.flags.config : undefined });
  if (forward) process.stdout.write(`Forwarding every event to ${forward.endpoint} (${forward.protocol}${forward.content ? ', with content' : ', no prompts or tool content'})\n`);
  let server;
  try {
    server = await startServer({
      forward,
      dbPath,
      roots: [...roots, imports],
      importsDir: imports,
      port: opts.port,
      host: opts.host,
      token: opts.token,
      demo,
      webRoot: findWebRoot(),
      version: VERSION,
      log: (l) => process.stdout.write(l + '\n'),
    });
  } catch (err) {
    if (err instanceof ListenError) throw new CliError(err.code === 'EADDRINUSE' ? 'port_in_use' : 'cannot_listen', err.message);
    // Creating the schema of a new index on a full disk (an existing index waits for space in the worker).
    if (isDiskFull(err)) throw diskFullError(dbPath, err);
    throw err;
  }
  const running = server;
  // With a token, the printed URL carries it once: the server trades it for an HttpOnly cookie and redirects.
  const openUrl = opts.token ? `${running.url}/?token=${encodeURIComponent(opts.token)}` : running.url;
  process.stdout.write(`Chronoscope ${VERSION} on ${openUrl}  (database ${dbPath})\n`);
  const started = Date.now();
  void running.backfilled.then(() => {
    process.stdout.write(`${backfillBanner(indexTotals(running.ctx.db), running.ctx.status.progress.bytesTotal, Date.now() - started)}\n`);
  });
  if (opts.open) {
    if (process.env.CI) process.stdout.write(`not opening a browser under CI: open ${openUrl} yourself\n`);
    else openBrowser(openUrl, (why) => process.stdout.write(`could not open a browser (${why}): open ${openUrl} yourself; the server keeps running\n`));
  }
  const shutdown = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await new Promise(() => {});
  return 0;
}

/** Asks the desktop to open the URL; `failed` says why when there is no opener or it gave up (no display). */
function openBrowser(url: string, failed: (why: string) => void): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', (err: NodeJS.ErrnoException) => failed(err.code === 'ENOENT' ? `${cmd} not found` : err.message));
    child.on('exit', (code, signal) => {
      if (code !== 0) failed(`${cmd} exited with ${signal ?? code}`);
    });
    child.unref();
  } catch (err) {
    failed(err instanceof Error ? err.message : String(err));
  }
}

/** The line printed when the backfill is done: the index's totals, the same figures as `index` and /api/health. */
export function backfillBanner(t: IndexTotals, bytesRead: number, ms: number): string {
  return (
    `indexed ${plural(t.files, 'log file')} (+${plural(t.companions, 'companion')}), ${plural(t.sessions, 'session')}, ${plural(t.events, 'event')}, ` +
    `${(bytesRead / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s; watching for changes`
  );
}
