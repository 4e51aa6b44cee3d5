import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from '../config';
import { indexTotals, type IndexTotals } from '../counts/index-totals';
import { resolveRoot } from '../ingest/discover';
import { resolveForwardConfig } from '../forward/forward-config';
import { ensureImportsTree, importsRoot } from '../import/write-imported';
import { startServer } from '../serve';
import { VERSION } from '../version';
import { demoCorpusDir, resolveDbPath, resolveRoots } from './locations';

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

/** A generated corpus so that a first run without Copilot logs still shows a working dashboard. */
async function ensureDemoCorpus(): Promise<string> {
  const dir = demoCorpusDir();
  if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
    const { generateCorpus } = await import('../../bench/corpus/generate');
    await generateCorpus({ outDir: dir, seed: 7, targetBytes: 24 * 1024 * 1024, now: Date.now() });
  }
  return dir;
}

export async function runServe(opts: Options): Promise<number> {
  let { roots } = await resolveRoots(opts);
  let demo = opts.demo;
  if (!demo && !(await hasCopilotLogs(roots))) {
    demo = true;
    process.stdout.write(
      opts.logs.length > 0
        ? `No Copilot debug logs under ${opts.logs.join(', ')}.\n`
        : 'No Copilot Chat debug logs found on this machine.\n',
    );
    process.stdout.write(
      'Serving a generated demo corpus. To record your own sessions, turn on the VS Code setting\n' +
        '  "github.copilot.chat.agentDebugLog.fileLogging.enabled": true\n',
    );
  }
  if (demo) roots = [await ensureDemoCorpus()];
  const dbPath = resolveDbPath({ ...opts, demo });
  // Sessions imported from OTLP files (the CLI's `import`, a file dropped on the Sessions page) live beside the
  // database; the folder exists from the start so that the watcher follows what arrives in it.
  const imports = importsRoot(dbPath);
  ensureImportsTree(imports);
  const forward = resolveForwardConfig({ flags: opts.flags, env: process.env, configFile: typeof opts.flags.config === 'string' ? opts.flags.config : undefined });
  if (forward) process.stdout.write(`Forwarding every event to ${forward.endpoint} (${forward.protocol}${forward.content ? ', with content' : ', no prompts or tool content'})\n`);
  const server = await startServer({
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
  // With a token, the printed URL carries it once: the server trades it for an HttpOnly cookie and redirects.
  const openUrl = opts.token ? `${server.url}/?token=${encodeURIComponent(opts.token)}` : server.url;
  process.stdout.write(`Chronoscope ${VERSION} on ${openUrl}  (database ${dbPath})\n`);
  const started = Date.now();
  void server.backfilled.then(() => {
    process.stdout.write(`${backfillBanner(indexTotals(server.ctx.db), server.ctx.status.progress.bytesTotal, Date.now() - started)}\n`);
  });
  if (opts.open && !process.env.CI) openBrowser(openUrl);
  const shutdown = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await new Promise(() => {});
  return 0;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'cmd' : 'xdg-open';
  const args = process.platform === 'win32' ? ['/c', 'start', '', url] : [url];
  try {
    spawn(cmd, args, { stdio: 'ignore', detached: true }).on('error', () => {}).unref();
  } catch {
    /* no browser here: the URL is printed */
  }
}

/** The line printed when the backfill is done: the index's totals, the same figures as `index` and /api/health. */
export function backfillBanner(t: IndexTotals, bytesRead: number, ms: number): string {
  return (
    `indexed ${t.files} log files (+${t.companions} companions), ${t.sessions} sessions, ${t.events} events, ` +
    `${(bytesRead / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s; watching for changes`
  );
}
