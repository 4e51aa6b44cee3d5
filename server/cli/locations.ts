import fs from 'node:fs';
import path from 'node:path';
import { defaultStateDir, type Options } from '../config';
import { importsRoot } from '../import/write-imported';
import { defaultCopilotHome, defaultEnv, defaultUserDataDirs } from '../ingest/discover';
import { CliError } from './cli-error';
import { DEBUG_LOG_SETTING } from '../../shared/debug-log-setting';

export function resolveDbPath(opts: Pick<Options, 'db' | 'demo'>): string {
  if (opts.db) return path.resolve(opts.db);
  return path.join(defaultStateDir(), opts.demo ? 'demo.db' : 'chronoscope.db');
}

export function demoCorpusDir(): string {
  return path.join(defaultStateDir(), 'demo-corpus');
}

/**
 * --logs when given; otherwise every VS Code user-data folder that exists on this machine and the Copilot CLI's
 * home ($COPILOT_HOME or ~/.copilot) when it exists. --copilot-home is read in either case. The database's own
 * imports tree (`chronoscope import`) is read too, whichever it is. `roots` holds only the user's logs (what
 * decides "no logs found"); `withImports` adds the imports tree when it exists.
 */
export async function resolveRoots(opts: Options): Promise<{ roots: string[]; fromDefaults: boolean; withImports: string[] }> {
  const imports = importsRoot(resolveDbPath(opts));
  const add = (roots: string[]) => (fs.existsSync(imports) ? [...roots, imports] : roots);
  const env = defaultEnv();
  const explicitHome = opts.copilotHome === null ? [] : [path.resolve(opts.copilotHome)];
  if (opts.logs.length > 0) {
    const roots = [...opts.logs.map((p) => path.resolve(p)), ...explicitHome];
    return { roots, fromDefaults: false, withImports: add(roots) };
  }
  const home = explicitHome.length > 0 ? explicitHome : [defaultCopilotHome(env)].filter((d) => fs.existsSync(d));
  const dirs = [...defaultUserDataDirs(env).filter((d) => fs.existsSync(d)), ...home];
  return { roots: dirs, fromDefaults: true, withImports: add(dirs) };
}

/**
 * Why a folder named with --logs cannot be indexed, or null when it is a folder that can be listed. As root
 * every folder can be read: what remains then is a path that is missing or is not a folder.
 */
export function logsFolderProblem(dir: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${dir} does not exist` : `${dir} cannot be examined (${code ?? String(err)})`;
  }
  if (!st.isDirectory()) return `${dir} is not a folder`;
  try {
    fs.readdirSync(dir);
  } catch (err) {
    return `${dir} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  return null;
}

/** The roots of `index` and the query commands: a --logs folder that is missing or unreadable is bad input. */
export async function requireRoots(opts: Options): Promise<{ roots: string[]; fromDefaults: boolean; withImports: string[] }> {
  const resolved = await resolveRoots(opts);
  if (opts.copilotHome !== null) {
    const home = path.resolve(opts.copilotHome);
    const problem = logsFolderProblem(home);
    if (problem) throw new CliError('bad_logs', `--copilot-home ${home}: ${problem.startsWith(home) ? problem.slice(home.length + 1) : problem}`);
  }
  if (!resolved.fromDefaults) {
    for (const r of resolved.roots) {
      const problem = logsFolderProblem(r);
      if (problem) throw new CliError('bad_logs', `--logs ${r}: ${problem.startsWith(r) ? problem.slice(r.length + 1) : problem}`);
    }
  }
  return resolved;
}

/** What to do when the folders indexed hold no Copilot debug log: `index` says it, and a query command on an empty index. */
export function noLogsHint(roots: string[]): string {
  return `no Copilot debug logs under ${roots.join(', ')}: turn on ${DEBUG_LOG_SETTING} in VS Code, use Copilot Chat, then index again\n`;
}
