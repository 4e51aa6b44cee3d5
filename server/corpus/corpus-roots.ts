import fs from 'node:fs';
import path from 'node:path';

/**
 * What a server is pointed at to read a whole generated corpus: its VS Code user-data tree and, when the
 * generator wrote Copilot CLI sessions, the CLI home beside it (`<corpus>/.copilot`, manifest.cli.home), as a
 * user with both passes `--logs` and `--copilot-home`. The CLI home is not found under the corpus folder by
 * discovery: a real `~/.copilot` never sits inside VS Code's user data.
 */
export function corpusRoots(corpusDir: string): string[] {
  const cliHome = path.join(corpusDir, '.copilot');
  return fs.existsSync(cliHome) ? [corpusDir, cliHome] : [corpusDir];
}
