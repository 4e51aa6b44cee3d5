import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { optionErrorText } from './cli/option-error-text';
import { argvAsMeant } from './cli/argv-as-meant';
import { z } from 'zod';

export const DEFAULT_PORT = 7311;
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'];
/** Long enough that guessing it over HTTP is hopeless; it is compared in constant time (server/http/security.ts). */
export const MIN_TOKEN_LENGTH = 16;

/** --host values that keep the server on this machine; anything else (0.0.0.0, a LAN address, a name) needs --token. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host.toLowerCase());
}

/** The per-user state folder: XDG state dir on Linux, Application Support on macOS, LOCALAPPDATA on Windows. */
export function defaultStateDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32') return path.win32.join(env.LOCALAPPDATA ?? path.win32.join(home, 'AppData', 'Local'), 'Chronoscope');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Chronoscope');
  return path.join(env.XDG_STATE_HOME ?? path.join(home, '.local', 'state'), 'chronoscope');
}

export const Options = z
  .object({
    command: z.string(),
    positionals: z.array(z.string()),
    logs: z.array(z.string()),
    /** the Copilot CLI's home (--copilot-home); null: $COPILOT_HOME, else ~/.copilot, read when it exists */
    copilotHome: z.string().nullable(),
    db: z.string().nullable(),
    port: z.coerce.number().int().min(0).max(65535, 'a port is at most 65535'),
    host: z.string().min(1),
    token: z.string().nullable(),
    open: z.boolean(),
    json: z.boolean(),
    demo: z.boolean(),
    noIndex: z.boolean(),
    flags: z.record(z.string(), z.union([z.string(), z.boolean(), z.array(z.string())]).optional()),
  })
  .superRefine((o, ctx) => {
    if (o.token !== null && (o.token.length < MIN_TOKEN_LENGTH || /\s/.test(o.token))) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: `a token is at least ${MIN_TOKEN_LENGTH} characters without spaces (try \`openssl rand -hex 16\`)` });
    }
    if (o.demo && (o.db !== null || o.logs.length > 0 || o.copilotHome !== null)) {
      // The demo never writes into a database the user named, nor mixes with real logs.
      ctx.addIssue({ code: 'custom', path: ['demo'], message: 'the demo corpus has its own database (demo.db in the state folder): drop --logs and --db, or drop --demo' });
    }
    if (!isLoopbackHost(o.host) && !o.token) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: `--host ${o.host} is not loopback: refusing to serve prompts to the network without --token` });
    }
  });
export type Options = z.infer<typeof Options>;

export class UsageError extends Error {}

/** Every option of the command line (one parse for all commands: each command reads and validates its own). */
const CLI_OPTIONS = {
  logs: { type: 'string', multiple: true },
  'copilot-home': { type: 'string' },
  db: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  open: { type: 'boolean' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
  'no-index': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  // command-specific
  window: { type: 'string' },
  repo: { type: 'string' },
  source: { type: 'string' },
  min: { type: 'string' },
  type: { type: 'string' },
  by: { type: 'string' },
  limit: { type: 'string' },
  model: { type: 'string' },
  tool: { type: 'string' },
  sort: { type: 'string' },
  depth: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string', short: 'o' },
  split: { type: 'boolean' },
  'max-chars': { type: 'string' },
  config: { type: 'string' },
  'otlp-endpoint': { type: 'string' },
  'otlp-protocol': { type: 'string' },
  'otlp-header': { type: 'string', multiple: true },
  'otlp-content': { type: 'boolean' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/**
 * Parses argv once. Flags that only some commands read (`--min`, `--type`, `--window`, `--repo`, `--by`, …)
 * are collected in `flags`; each command validates its own. Unknown flags are an error that names them.
 */
export function parseOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({ args: argvAsMeant(argv, CLI_OPTIONS), allowPositionals: true, strict: true, options: CLI_OPTIONS });
  } catch (err) {
    throw new UsageError(optionErrorText(err, argv, Object.keys(CLI_OPTIONS)));
  }
  const v = parsed.values;
  const [command = 'serve', ...positionals] = parsed.positionals;
  const result = Options.safeParse({
    command: v.help ? 'help' : v.version ? 'version' : command,
    positionals,
    logs: v.logs ?? [],
    copilotHome: v['copilot-home'] ?? null,
    db: v.db ?? null,
    port: v.port ?? (process.env.CHRONOSCOPE_PORT || DEFAULT_PORT),
    host: v.host ?? '127.0.0.1',
    token: v.token ?? process.env.CHRONOSCOPE_TOKEN ?? null,
    open: v.open ?? false,
    json: v.json ?? false,
    demo: v.demo ?? false,
    noIndex: v['no-index'] ?? false,
    flags: v,
  });
  if (!result.success) {
    const i = result.error.issues[0];
    throw new UsageError(`${i.path.length ? `--${String(i.path[0])}: ` : ''}${i.message}`);
  }
  return result.data;
}
