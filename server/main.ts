import { runCli } from './cli/run-cli';

// `serve` resolves only when it stops; every other command returns its exit code (cli/cli-error.ts).
runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
