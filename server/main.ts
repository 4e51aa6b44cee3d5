import { COMMANDS } from './cli/commands';
import { parseOptions, UsageError } from './config';
import { VERSION } from './version';

function help(): string {
  const lines = [`chronoscope ${VERSION}: GitHub Copilot Chat debug logs, indexed and searchable`, '', 'Usage: chronoscope <command> [options]', ''];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${c.usage.padEnd(78)} ${c.summary}`.replace(/^ {2}/, `  `), '');
  lines.push('Common options: --logs DIR (repeatable; default: every VS Code user-data folder), --db FILE, --no-index, --json');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  let opts;
  try {
    opts = parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`chronoscope: ${err.message}\nRun \`chronoscope --help\` for usage.\n`);
      return 2;
    }
    throw err;
  }
  if (opts.command === 'help') {
    process.stdout.write(help() + '\n');
    return 0;
  }
  // own keys only: `chronoscope constructor` is an unknown command, not Object.prototype.constructor
  const cmd = Object.hasOwn(COMMANDS, opts.command) ? COMMANDS[opts.command] : undefined;
  if (!cmd) {
    process.stderr.write(`chronoscope: unknown command "${opts.command}". Commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return 2;
  }
  return cmd.run(opts);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0 || !['serve'].includes(process.argv[2] ?? 'serve')) process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`chronoscope: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
