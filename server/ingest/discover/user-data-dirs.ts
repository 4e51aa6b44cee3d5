import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Everything the default-location lookup depends on, so tests can fake any OS. */
export interface DiscoverEnv {
  platform: NodeJS.Platform;
  homedir: string;
  env: Record<string, string | undefined>;
}

export function defaultEnv(): DiscoverEnv {
  return { platform: process.platform, homedir: os.homedir(), env: { ...process.env } };
}

/** productName values from each build's product.json (FORMAT §1.2). */
export const PRODUCT_NAMES = ['Code', 'Code - Insiders', 'VSCodium', 'VSCodium - Insiders', 'Code - OSS'] as const;

/** `~/.vscode-server`, `~/.vscode-server-insiders`, `~/.vscodium-server`, … (FORMAT §1.2, remote windows). */
const REMOTE_SERVER_DIR = /^\.vscod(e|ium)-server/;

/**
 * Candidate `<userDataDir>`s, most specific first, without duplicates. They are candidates: most will not
 * exist on a given machine, and `resolveRoot` reports those with `exists: false`.
 *
 * VS Code itself uses only the first rule that applies (FORMAT §1.2). Chronoscope wants every log on the
 * machine, and the variables describe only the shell it was started from, so the overrides come first and
 * the platform defaults are still listed after them.
 */
export function defaultUserDataDirs(e: DiscoverEnv): string[] {
  const p = e.platform === 'win32' ? path.win32 : path.posix;
  const dirs: string[] = [];
  const portable = nonEmpty(e.env.VSCODE_PORTABLE);
  if (portable) dirs.push(p.join(portable, 'user-data'));
  const appDataOverride = nonEmpty(e.env.VSCODE_APPDATA);
  if (appDataOverride) dirs.push(...PRODUCT_NAMES.map((name) => p.join(appDataOverride, name)));
  const appData = platformAppData(e);
  dirs.push(...PRODUCT_NAMES.map((name) => p.join(appData, name)));
  dirs.push(...remoteServerDataDirs(e));
  return [...new Set(dirs)];
}

/**
 * The Copilot CLI's home (INTEROP §3): `$COPILOT_HOME` moves `~/.copilot`. Its `session-state` folder holds one
 * folder per CLI session (and VS Code's agent-host sessions).
 */
export function defaultCopilotHome(e: DiscoverEnv): string {
  const p = e.platform === 'win32' ? path.win32 : path.posix;
  return nonEmpty(e.env.COPILOT_HOME) ?? p.join(e.homedir, '.copilot');
}

function platformAppData(e: DiscoverEnv): string {
  if (e.platform === 'win32') {
    return (
      nonEmpty(e.env.APPDATA) ??
      path.win32.join(nonEmpty(e.env.USERPROFILE) ?? e.homedir, 'AppData', 'Roaming')
    );
  }
  if (e.platform === 'darwin') return path.posix.join(e.homedir, 'Library', 'Application Support');
  return nonEmpty(e.env.XDG_CONFIG_HOME) ?? path.posix.join(e.homedir, '.config');
}

/**
 * The data dirs of VS Code servers installed in the home directory (SSH, WSL and tunnel targets), found by
 * listing the home directory. `VSCODE_AGENT_FOLDER` relocates the server folder, so it is listed too.
 */
function remoteServerDataDirs(e: DiscoverEnv): string[] {
  const p = e.platform === 'win32' ? path.win32 : path.posix;
  const dirs: string[] = [];
  const agentFolder = nonEmpty(e.env.VSCODE_AGENT_FOLDER);
  if (agentFolder) dirs.push(p.join(agentFolder, 'data'));
  let names: string[] = [];
  try {
    names = readdirSync(e.homedir, { withFileTypes: true })
      .filter((d) => (d.isDirectory() || d.isSymbolicLink()) && REMOTE_SERVER_DIR.test(d.name))
      .map((d) => d.name);
  } catch {
    // An unreadable or fake home directory simply has no servers.
  }
  for (const name of names.sort()) dirs.push(p.join(e.homedir, name, 'data'));
  return dirs;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined;
}
