import { nearestName } from '../../shared/nearest-name';
import { errorBody } from '../http/errors';
import { parseOptions, UsageError } from '../config';
import { VERSION } from '../version';
import { asCliError, CliError, EXIT_FAILED, EXIT_OK } from './cli-error';
import { COMMANDS } from './commands';

function help(): string {
  const lines = [`chronoscope ${VERSION}: GitHub Copilot Chat debug logs, indexed and searchable`, '', 'Usage: chronoscope <command> [options]', ''];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${c.usage.padEnd(78)} ${c.summary}`.replace(/^ {2}/, `  `), '');
  lines.push(
    'Common options: --logs DIR (repeatable; default: every VS Code user-data folder), --db FILE, --demo (the generated demo corpus), --no-index, --json; --help, --version',
    'Exit status: 0 done, 1 nothing found, 2 bad input or the command could not run (one line says what to fix; with --json, {"error":{code,message}} on stdout)',
  );
  return lines.join('\n');
}

/** The CLI without the process: argv in, exit code out (main.ts; tests run commands through it). */
export async function runCli(argv: string[]): Promise<number> {
  let command = '';
  let json = argv.includes('--json');
  try {
    let opts;
    try {
      opts = parseOptions(argv);
    } catch (err) {
      if (err instanceof UsageError) throw new CliError('bad_request', `${err.message} (run \`chronoscope --help\` for usage)`);
      throw err;
    }
    json = opts.json;
    if (opts.command === 'help') {
      process.stdout.write(help() + '\n');
      return EXIT_OK;
    }
    if (opts.command === 'version') {
      process.stdout.write(json ? `${JSON.stringify({ version: VERSION })}\n` : `chronoscope ${VERSION}\n`);
      return EXIT_OK;
    }
    // own keys only: `chronoscope constructor` is an unknown command, not Object.prototype.constructor
    const cmd = Object.hasOwn(COMMANDS, opts.command) ? COMMANDS[opts.command] : undefined;
    if (!cmd) {
      const meant = nearestName(opts.command.toLowerCase(), Object.keys(COMMANDS));
      throw new CliError('bad_request', `unknown command "${opts.command}"${meant ? `: did you mean ${meant}?` : '.'} Commands: ${Object.keys(COMMANDS).join(', ')}`);
    }
    command = opts.command;
    return await cmd.run(opts);
  } catch (err) {
    const e = asCliError(err);
    if (e.code === 'internal' && err instanceof Error && err.stack && process.env.CHRONOSCOPE_DEBUG) process.stderr.write(err.stack + '\n');
    process.stderr.write(`chronoscope${command ? ` ${command}` : ''}: ${e.message}\n`);
    if (json) process.stdout.write(JSON.stringify(errorBody(e.code, e.message, e.details)) + '\n');
    return EXIT_FAILED;
  }
}
